// gaugebot's third dice verifier, in the visitor's browser: written from docs/DICE.md alone
// (beside `gaugebot verify` and tools/verify_draws.py). It downloads the game record and
// checks, with WebCrypto's SHA-256 and its own ChaCha20 (RFC 8439):
//   its own test vectors (DICE.md §9), the record's numbering, the hash chain (§8.2; for a
//   `gaugebot-record-v3` the chain `gaugebot-chain-v2` of §8.6), that every audited draw entry
//   has its draw record (§8.1), the message keys (§8.3, v2), the rules of a v3 record that need
//   no seed and no witness (§8.6: no stripping, downgrading, relabelling as manual or
//   re-keying), the seed against the commitment (§2) and every draw (§3–§7) once the seed is
//   revealed, a hidden draw also against its sealed hash (§7.2).
// A dice version is one entry of DICE_VERSIONS (how its draw key is made, which record format
// and chain it is recorded in); the rest is shared.
"use strict";
(function () {
  const enc = new TextEncoder();

  // ---- bytes -------------------------------------------------------------------------------
  function hex(bytes) {
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function unhex(text) {
    if (!/^([0-9a-fA-F]{2})*$/.test(text)) return null;
    const out = new Uint8Array(text.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
    return out;
  }
  function concat(parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  }
  function u32be(n) {
    return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  }
  function u64be(n) {
    return concat([u32be(Math.floor(n / 4294967296)), u32be(n % 4294967296)]);
  }
  function prefixed(text) {
    const bytes = enc.encode(text);
    return concat([u32be(bytes.length), bytes]);
  }
  async function sha256(bytes) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }

  // ---- the draw key (§3), one entry per dice version ---------------------------------------
  // `message`: keyed by the triggering message (§3.2); `clientSeed`: keyed by the game's client
  // seed (§3.3); `format`: the record format it is recorded in only (§8.6), with its chain.
  const FORMAT_V3 = "gaugebot-record-v3", CHAIN_V1 = "gaugebot-chain-v1", CHAIN_V2 = "gaugebot-chain-v2";
  const DICE_VERSIONS = {
    "gaugebot-dice-v1": {
      message: false,
      key: (seed, gameId, index, purpose) =>
        concat([enc.encode("gaugebot-dice-v1"), new Uint8Array([0]), seed, prefixed(gameId),
          u64be(index), prefixed(purpose)]),
    },
    "gaugebot-dice-v2": {
      message: true,
      key: (seed, gameId, index, purpose, messageId) =>
        concat([enc.encode("gaugebot-dice-v2"), new Uint8Array([0]), seed, prefixed(gameId),
          u64be(index), prefixed(purpose), prefixed(messageId)]),
    },
    "gaugebot-dice-v3": {
      clientSeed: true,
      format: FORMAT_V3,
      key: (seed, gameId, index, purpose, clientSeed) =>
        concat([enc.encode("gaugebot-dice-v3"), new Uint8Array([0]), seed, prefixed(gameId),
          u64be(index), prefixed(purpose), prefixed(clientSeed)]),
    },
  };
  // §7.2: the sealed hash of a hidden draw, salted by its (secret until the reveal) key.
  async function sealedHash(key, result) {
    return hex(await sha256(concat([enc.encode("gaugebot-sealed-v1"), new Uint8Array([0]), key, enc.encode(canonical(result))])));
  }

  // ---- the stream (§4): ChaCha20, zero nonce, counter from 0, little-endian words ----------
  function chachaBlock(key, counter) {
    const s = new Uint32Array(16);
    s[0] = 0x61707865; s[1] = 0x3320646e; s[2] = 0x79622d32; s[3] = 0x6b206574;
    for (let i = 0; i < 8; i++) {
      s[4 + i] = key[4 * i] | (key[4 * i + 1] << 8) | (key[4 * i + 2] << 16) | (key[4 * i + 3] << 24);
    }
    s[12] = counter;
    const x = s.slice();
    const rotl = (v, c) => (v << c) | (v >>> (32 - c));
    function qr(a, b, c, d) {
      x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 16);
      x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 12);
      x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 8);
      x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 7);
    }
    for (let round = 0; round < 10; round++) {
      qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
      qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) x[i] += s[i];
    return x;
  }
  function stream(key) {
    let counter = 0, block = null, at = 16;
    return {
      next() {
        if (at === 16) { block = chachaBlock(key, counter++); at = 0; }
        return block[at++];
      },
    };
  }
  // §5: a uniform integer in [0, n).
  function uniform(words, n) {
    const limit = 4294967296 - (4294967296 % n);
    for (;;) {
      const x = words.next();
      if (x < limit) return x % n;
    }
  }
  // §6: k items without replacement.
  function pick(words, list, k) {
    const remaining = list.slice(), out = [];
    const times = Math.min(k, remaining.length);
    for (let t = 0; t < times; t++) {
      const j = uniform(words, remaining.length);
      out.push(remaining[j]);
      remaining.splice(j, 1);
    }
    return out;
  }

  // ---- what a purpose draws from (§7) ------------------------------------------------------
  const range = (n) => Array.from({ length: n }, (_, i) => i + 1);
  const colours = (counts, names) =>
    names.flatMap((name) => Array(Number((counts || {})[name] || 0)).fill(name));
  const PURPOSES = {
    "player-order": (r) => [range(r.players), r.players],
    "city-cubes": () => [range(12), 8],
    "dividend-draw": (r) => { const l = colours(r.supply, ["white", "pink", "black"]); return [l, Math.min(3, l.length)]; },
    "privates-dealer": (r) => [range(r.players), 1],
    "privates-deck": (r) => { const l = [5, 10, 15, 20, 25, 30, 35, 40, 50].flatMap((c) => Array(r.copies).fill(c)); return [l, l.length]; },
    "privates-chips": (r) => { const l = colours(r.bag, ["red", "yellow", "green", "blue", "black"]); return [l, Math.min(7, l.length)]; },
    "signup-pick": (r) => [range(r.signups), r.picks],
  };
  // The list and count of a draw record: its own description (§7.1), checked against its
  // purpose's inputs when the purpose is known; else by purpose (records before §7.1).
  function population(record) {
    const known = PURPOSES[record.purpose];
    const byPurpose = known ? known(record) : null;
    if (Array.isArray(record.population) && Number.isInteger(record.count)) {
      if (byPurpose && (canonical(byPurpose[0]) !== canonical(record.population) || byPurpose[1] !== record.count)) {
        throw new Error("its population and count are not what its purpose's inputs give");
      }
      return [record.population, record.count];
    }
    if (!byPurpose) throw new Error("unknown purpose " + JSON.stringify(record.purpose) + " and no population");
    return byPurpose;
  }
  // The draw key of a record (§3): under v2 its message, under v3 the game's client seed.
  async function drawKey(version, seed, gameId, record, clientSeed) {
    const spec = DICE_VERSIONS[version];
    if (!Number.isInteger(record.index) || record.index < 0) throw new Error("no index");
    if (spec.message && !/^[0-9]+$/.test(record.message_id || "")) throw new Error("no message_id of decimal digits");
    if (spec.clientSeed) {
      if (record.message_id !== undefined) throw new Error("a v3 draw carries no message_id (its key is its position and the game's client seed)");
      if (typeof clientSeed !== "string") throw new Error("no client seed (client_seed)");
    }
    return sha256(spec.key(seed, gameId, record.index, record.purpose, spec.clientSeed ? clientSeed : record.message_id));
  }
  async function recompute(version, seed, gameId, record, clientSeed) {
    const key = await drawKey(version, seed, gameId, record, clientSeed);
    const [list, count] = population(record);
    return pick(stream(key), list, count);
  }

  // ---- the hash chain (§8.2) ---------------------------------------------------------------
  function canonical(v) {
    if (v === null) return "null";
    if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
    if (typeof v === "object") {
      const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
    }
    return JSON.stringify(v);
  }
  // A link's hash; under gaugebot-chain-v2 (§8.6) a hidden draw record's result is not hashed
  // (its `sealed` is), so the heads stay the same across the reveal.
  async function linkHash(prev, link, algorithm = CHAIN_V1) {
    const body = {};
    const hidden = algorithm === CHAIN_V2 && link.hidden === true;
    for (const k of Object.keys(link)) if (k !== "prev" && k !== "undone" && !(hidden && k === "result")) body[k] = link[k];
    return sha256(concat([enc.encode(algorithm), new Uint8Array([0]), prev, enc.encode(canonical(body))]));
  }
  // §7.2: the setup with every field a hidden setup draw fills set to null.
  function redactedSetup(setup, draws) {
    if (!setup || typeof setup !== "object") return setup;
    const copy = JSON.parse(JSON.stringify(setup));
    for (const d of draws) {
      if (d && d.hidden === true && (d.seq === undefined || d.seq === null) && typeof d.fills === "string"
        && copy.setup && typeof copy.setup === "object" && Object.prototype.hasOwnProperty.call(copy.setup, d.fills)) {
        copy.setup[d.fills] = null;
      }
    }
    return copy;
  }
  const nullable = (v) => (v === undefined ? null : v);
  // The chain's first link (§8.2, §8.6).
  function chainHeader(record, draws) {
    if (record.format === FORMAT_V3) {
      return { chain: CHAIN_V2, format: FORMAT_V3, version: nullable(record.version), game_id: nullable(record.game_id),
        kind: nullable(record.kind), commitment: nullable(record.commitment), client_seed: nullable(record.client_seed),
        setup: nullable(redactedSetup(record.setup, draws)) };
    }
    return { chain: CHAIN_V1, version: record.version, game_id: record.game_id, kind: record.kind,
      commitment: nullable(record.commitment), setup: record.setup };
  }
  const isSetupDraw = (d) => d.seq === undefined || d.seq === null;
  // §8.6, rules 1–3: what a v3 record must be, checked without the seed and without a witness.
  // Returns the first rule broken ({ text, seq }), or null.
  function v3Rules(record, draws) {
    const setup = record.setup && typeof record.setup === "object" ? record.setup : {};
    const own = setup.setup && typeof setup.setup === "object" ? setup.setup : {};
    const revealedSeed = record.seed !== undefined && record.seed !== null;
    if (record.commitment !== undefined && record.commitment !== null) {
      if (setup.dice !== "audited") return { text: "The record has a commitment but its setup says dice " + JSON.stringify(setup.dice) + ": a game with a commitment has audited dice." };
      // The client seed is the commitment post's id (setup.client_seed) when the game was set
      // up with the commitment first, else the setup message's id (§8.6 rule 1).
      const ownSeed = typeof setup.client_seed === "string" ? setup.client_seed : setup.setup_message;
      if (typeof record.client_seed !== "string" || record.client_seed !== ownSeed) return { text: "The record's client seed is not its setup's (setup.client_seed, else setup.setup_message): every draw's key would change." };
    } else if (setup.dice !== "manual" || revealedSeed || draws.length) {
      return { text: "A record without a commitment must have manual dice, no seed and no draw records." };
    }
    for (const d of draws) {
      const name = isSetupDraw(d) ? "The setup draw " + d.purpose : "The draw record of entry #" + d.seq;
      if (d.message_id !== undefined) return { text: name + " carries a message_id: a v3 draw is keyed by its position and the game's client seed only.", seq: d.seq };
      if (d.hidden === true) {
        if (typeof d.sealed !== "string" || !/^[0-9a-fA-F]{64}$/.test(d.sealed)) return { text: name + " is hidden but has no sealed hash.", seq: d.seq };
        if (!revealedSeed && d.result !== undefined && d.result !== null) return { text: name + " is hidden, yet its result is shown before the reveal.", seq: d.seq };
        if (typeof d.fills === "string") {
          const want = revealedSeed ? nullable(d.result) : null;
          if (canonical(nullable(own[d.fills])) !== canonical(want)) {
            return { text: "The setup's " + d.fills + " is not " + (revealedSeed ? "the result of " + name.charAt(0).toLowerCase() + name.slice(1) : "null before the reveal (it is hidden)") + "." };
          }
        }
      }
    }
    const purposes = new Map(draws.filter((d) => !isSetupDraw(d)).map((d) => [d.seq, d.purpose]));
    const stack = [], madeAt = new Map();
    let revealed = false;
    for (const item of record.log) {
      const entry = item && item.entry;
      if (!entry || typeof entry !== "object") continue;
      if (entry.entry === "reveal") revealed = true;
      else if (entry.entry === "undo") popUnit(stack);
      else if (entry.entry === "action") stack.push({ seq: item.seq, entry });
      else if (entry.entry === "draw") {
        const manual = entry.manual !== false;
        if (manual && record.commitment !== undefined && record.commitment !== null && !revealed) {
          return { text: "Entry #" + item.seq + " is a moderator's draw before the seed's reveal in a game with audited dice: audited draws cannot be relabelled as manual.", seq: item.seq };
        }
        if (!manual) {
          const purpose = purposes.get(item.seq);
          const position = stack.length;
          let wanted = null;
          if (purpose === "dividend-draw") wanted = position;
          else if (purpose === "privates-chips") wanted = 2 + stack.filter((s) => purposes.get(s.seq) === "privates-chips").length;
          if (wanted !== null && entry.index !== wanted) {
            return { text: "Entry #" + item.seq + " draws " + purpose + " at index " + entry.index + ", but its position makes the index " + wanted + " (a moved draw is a re-roll).", seq: item.seq };
          }
          const where = position + "\u0000" + purpose;
          if (madeAt.has(where) && madeAt.get(where) !== entry.index) {
            return { text: "Entry #" + item.seq + " redoes the " + purpose + " draw made at history position " + position + " under index " + entry.index + ", not under the index " + madeAt.get(where) + " of the draw it redoes (a re-roll).", seq: item.seq };
          }
          if (!madeAt.has(where)) madeAt.set(where, entry.index);
        }
        stack.push({ seq: item.seq, entry });
      }
    }
    return null;
  }
  // §8.1: an undo takes back the last move, or a draw together with the move that called for it.
  function popUnit(stack) {
    if (!stack.length) return;
    const last = stack.pop();
    if (last.entry.entry === "draw" && stack.length && stack[stack.length - 1].entry.entry === "action") stack.pop();
  }
  // Where a link is in the record, for the report.
  const where = (link) => (link.kind === "entry" ? "entry #" + link.value.seq
    : link.value.seq === undefined || link.value.seq === null ? "the setup draw " + link.value.purpose
      : "the draw record of entry #" + link.value.seq);

  // ---- the checks --------------------------------------------------------------------------
  async function verifyRecord(record) {
    const lines = [];
    const ok = (text) => lines.push({ ok: true, text });
    const fail = (text, seq) => lines.push({ ok: false, text, seq });
    const note = (text) => lines.push({ note: true, text });
    if (!record || typeof record !== "object") {
      fail("This is not a game record.");
      return lines;
    }
    const spec = DICE_VERSIONS[record.version];
    // §8.6 and "Verification" step 1: a v3 object with any field of a game record must be a
    // whole gaugebot-record-v3 with its chain; else it was stripped or downgraded.
    const recordField = ["format", "chain", "log", "setup", "kind"].some((f) => record[f] !== undefined);
    if (spec && spec.format && recordField && !(record.format === spec.format && record.chain)) {
      fail("Stripped or downgraded: a " + record.version + " game record must have format " + spec.format + " and its chain, but this one " + (record.format === undefined ? "has no format" : "has format " + JSON.stringify(record.format)) + (record.chain ? "" : " and no chain") + ". Nothing else is checked.");
      return lines;
    }
    if (!Array.isArray(record.log)) {
      fail("This is not a game record.");
      return lines;
    }
    if (!spec && record.commitment) {
      fail("Unknown dice version " + JSON.stringify(record.version) + ": this verifier knows " + Object.keys(DICE_VERSIONS).join(", ") + ".");
      return lines;
    }
    if (record.format === FORMAT_V3 && !(spec && spec.format === FORMAT_V3)) {
      fail("Downgraded or relabelled: a record of format " + FORMAT_V3 + " records only gaugebot-dice-v3 dice, but this one says " + JSON.stringify(record.version) + ".");
    }
    // Numbering.
    const gap = record.log.findIndex((e, i) => e.seq !== i);
    if (gap >= 0) fail("The entries are not numbered 0, 1, 2 …: entry " + gap + " is numbered " + record.log[gap].seq + ".", gap);
    else ok("The " + record.log.length + " entries are numbered 0 to " + (record.log.length - 1) + " with no gap.");
    // The chain.
    const draws = Array.isArray(record.draws) ? record.draws : [];
    if (record.format === "gaugebot-record-v2" || record.format === FORMAT_V3) {
      const algorithm = record.format === FORMAT_V3 ? CHAIN_V2 : CHAIN_V1;
      const links = [];
      const setup = draws.filter((d) => d.seq === undefined || d.seq === null);
      const bySeq = new Map(draws.filter((d) => Number.isInteger(d.seq)).map((d) => [d.seq, d]));
      for (const d of setup) links.push({ kind: "draw", value: d });
      let used = 0;
      for (const e of record.log) {
        links.push({ kind: "entry", value: e });
        if (bySeq.has(e.seq)) { links.push({ kind: "draw", value: bySeq.get(e.seq) }); used++; }
      }
      const header = chainHeader(record, draws);
      // Before the reveal a page withholds the hidden orders of a v1 or v2 record (§8.7): such a
      // link cannot be hashed here; its hash is the next link's `prev` (or the head), checked
      // after the reveal. A v3 record withholds nothing: it seals what it hides (§7.2).
      const withheld = (algorithm === CHAIN_V1 && record.withheld) || { header: false, draws: [] };
      const withheldDraws = new Set((withheld.draws || []).map((i) => draws[i]));
      const chain = record.chain || {};
      const nextPrev = (i) => (i + 1 < links.length ? unhex(links[i + 1].value.prev || "") : unhex(chain.head || ""));
      let prev = withheld.header ? unhex(links.length ? links[0].value.prev || "" : chain.head || "") : await linkHash(new Uint8Array(32), header, algorithm);
      let broken = null;
      for (let i = 0; i < links.length; i++) {
        const link = links[i];
        if (link.value.prev !== hex(prev)) { broken = link; break; }
        prev = withheldDraws.has(link.value) ? nextPrev(i) : await linkHash(prev, link.value, algorithm);
      }
      if (withheld.header || withheldDraws.size) {
        note("Withheld until the reveal, so that nothing hidden is shown: the order of the cards not dealt yet (" + (withheld.header ? "in the setup" : "") + (withheld.header && withheldDraws.size ? " and " : "") + (withheldDraws.size ? withheldDraws.size + " setup draw" : "") + "). Those links of the chain are checked once the game is over.");
      }
      if (chain.algorithm !== algorithm) {
        fail("The hash chain: its algorithm is " + JSON.stringify(chain.algorithm) + ", but a record of format " + record.format + " is chained by " + algorithm + ".");
      } else if (broken) {
        fail("The hash chain breaks at " + where(broken) + ": its prev is not the hash of the record before it (a record before it was changed, dropped or added).", broken.value.seq);
      } else if (setup.length + used !== draws.length) {
        fail("The hash chain: " + (draws.length - setup.length - used) + " draw records belong to no entry.");
      } else if (chain.head !== hex(prev)) {
        fail("The hash chain: the last record does not hash to the head " + chain.head + " (the last record changed, or the tail was cut).");
      } else if (chain.entries !== record.log.length || chain.draws !== draws.length) {
        fail("The hash chain: its counts are not the record's.");
      } else {
        ok("The hash chain (" + algorithm + ") is whole: " + (links.length + 1) + " links, head " + hex(prev).slice(0, 12) + "….");
      }
      if (record.format === FORMAT_V3) {
        const broke = v3Rules(record, draws);
        if (broke) fail(broke.text, broke.seq);
        else ok("The rules of a " + FORMAT_V3 + " record hold (§8.6): the format, dice version, commitment and client seed are the chain's, no draw is relabelled as the moderator's, re-keyed or moved.");
      }
    } else {
      note("A record of the first format has no hash chain.");
    }
    if (record.commitment === undefined || record.commitment === null) {
      const manual = record.log.filter((e) => e.entry && e.entry.entry === "draw").length;
      note("Manual dice: no seed, no commitment; " + manual + " draws were entered by the moderator, nothing to recompute.");
      return lines;
    }
    // Every audited draw entry has its record (§8.1).
    const entryDraws = record.log.filter((e) => e.entry && e.entry.entry === "draw" && !e.entry.manual);
    let missing = 0;
    for (const e of entryDraws) {
      const recs = draws.filter((d) => d.seq === e.seq);
      const drawn = e.entry.cubes || e.entry.chips;
      if (recs.length !== 1 || recs[0].index !== e.entry.index || (drawn && canonical(drawn) !== canonical(recs[0].result))) {
        fail("Entry #" + e.seq + " is an audited draw without exactly one draw record of the same index and result.", e.seq);
        missing++;
      }
    }
    if (!missing) ok("Each of the " + entryDraws.length + " audited draws of the log has its draw record.");
    // Message keys (§8.3), under a version keyed by messages.
    if (spec.message && record.format === "gaugebot-record-v2") {
      const setupMessage = (record.setup || {}).setup_message;
      let wrong = 0;
      for (const d of draws) {
        let expected;
        if (d.seq === undefined || d.seq === null) expected = [setupMessage];
        else {
          const entry = record.log[d.seq] || {};
          const trigger = record.log[d.seq - 1];
          const isMove = trigger && trigger.entry && trigger.entry.entry === "action";
          const marker = isMove ? record.log[d.seq - 2] : null;
          const proxy = marker && marker.entry && marker.entry.entry === "table" && marker.entry.event === "proxy" ? marker.entry : null;
          const botMade = proxy && proxy.why !== "moderator";
          if (isMove ? d.trigger !== d.seq - 1 : d.trigger !== undefined && d.trigger !== null) { fail("The draw record of entry #" + d.seq + " names the wrong trigger.", d.seq); wrong++; continue; }
          if (proxy ? !d.bot_made || d.bot_made.why !== proxy.why || d.bot_made.marker !== d.seq - 2 : d.bot_made) { fail("The draw record of entry #" + d.seq + " says wrongly whether the table made its move.", d.seq); wrong++; continue; }
          expected = botMade || !/^[0-9]+$/.test(entry.message_id || "") ? [setupMessage] : [entry.message_id];
          for (const earlier of draws) {
            if (earlier === d) break;
            if (earlier.undone && earlier.purpose === d.purpose && earlier.index === d.index) expected.push(earlier.message_id);
          }
        }
        if (!expected.includes(d.message_id)) { fail("The draw record " + (d.seq === undefined ? d.purpose : "of entry #" + d.seq) + " is keyed by the wrong message.", d.seq); wrong++; }
      }
      if (!wrong) ok("Every draw is keyed by the message that caused it.");
    }
    // The seed.
    const revealed = record.log.some((e) => e.entry && e.entry.entry === "reveal");
    const hidden = draws.filter((d) => d.hidden === true);
    if (!record.seed) {
      if (revealed) fail("The log has a reveal entry but the record has no seed.");
      else {
        note("The seed is secret until the reveal: the commitment " + String(record.commitment).slice(0, 12) + "… is fixed; the " + draws.length + " draws can be recomputed once the seed is revealed.");
        if (hidden.length && spec && spec.clientSeed) {
          note("Sealed: the hidden draw" + (hidden.length === 1 ? " " : "s ") + hidden.map((d) => d.purpose + " (sealed " + String(d.sealed).slice(0, 12) + "…)").join(", ") + (hidden.length === 1 ? " is" : " are") + " sealed until the reveal: not shown, and bound by the chain to " + (hidden.length === 1 ? "its" : "their") + " sealed hash; checkable after the reveal.");
        }
      }
      return lines;
    }
    if (!revealed) fail("The record has a seed but the log has no reveal entry.");
    const seed = unhex(record.seed);
    if (!seed || seed.length !== 32) { fail("The seed is not 64 hex digits."); return lines; }
    if (hex(await sha256(seed)) !== record.commitment.toLowerCase()) {
      fail("The seed does not match the commitment: SHA-256 of the seed is not " + record.commitment + ".");
      return lines;
    }
    ok("The seed matches the commitment (SHA-256).");
    // Every draw; a hidden one (v3) also against the sealed hash the chain bound it to.
    let bad = 0;
    for (const d of draws) {
      const name = d.seq === undefined || d.seq === null ? "The setup draw " + d.purpose : "The draw of entry #" + d.seq + " (" + d.purpose + ", index " + d.index + ")";
      try {
        const again = await recompute(record.version, seed, record.game_id, d, record.client_seed);
        if (canonical(again) !== canonical(d.result)) {
          fail(name + " does not match: recorded " + canonical(d.result) + ", recomputed " + canonical(again) + ".", d.seq);
          bad++;
        } else if (spec.clientSeed && d.hidden === true) {
          const key = await drawKey(record.version, seed, record.game_id, d, record.client_seed);
          const sealed = await sealedHash(key, again);
          if (sealed !== String(d.sealed).toLowerCase()) {
            fail(name + " is hidden and its result is not the one sealed before the reveal: sealed " + d.sealed + ", the result seals to " + sealed + ".", d.seq);
            bad++;
          }
        }
      } catch (e) {
        fail(name + " is malformed: " + e.message + ".", d.seq);
        bad++;
      }
    }
    if (!bad) ok("All " + draws.length + " draws recomputed from the seed: each matches." + (hidden.length && spec.clientSeed ? " The " + hidden.length + " hidden draw" + (hidden.length === 1 ? " matches its" : "s match their") + " sealed hash." : ""));
    return lines;
  }

  // ---- DICE.md §9: the test vectors this verifier shares with the other two ----------------
  async function selftest() {
    const seed = unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    const failures = [];
    let n = 0;
    const expect = (what, got, want) => { n++; if (canonical(got) !== canonical(want)) failures.push(what); };
    expect("commitment", hex(await sha256(seed)), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
    const v1 = DICE_VERSIONS["gaugebot-dice-v1"], v2 = DICE_VERSIONS["gaugebot-dice-v2"];
    const key1 = await sha256(v1.key(seed, "test-game", 0, "player-order"));
    expect("v1 key player-order", hex(key1), "03253273b50e835de9fcc2d1efc1ce085da25d5f8aa01564bfd6a0b6b3b8e878");
    expect("v1 key dividend-draw 12", hex(await sha256(v1.key(seed, "test-game", 12, "dividend-draw"))), "7fde711ab856062cdc263436de0ef851b05f9de224bf5a34f575d6ef1c2f9d14");
    const w = stream(key1);
    expect("v1 first words", [w.next(), w.next(), w.next(), w.next()], [2570235227, 2846557017, 3453062251, 4049679983]);
    const u = stream(key1);
    expect("v1 uniform(2^31+1)", Array.from({ length: 4 }, () => uniform(u, 2147483649)), [373383135, 1783334843, 313863242, 1385407034]);
    const draw = (version, gameId, r) => recompute(version, seed, gameId, r);
    expect("v1 player-order 4", await draw("gaugebot-dice-v1", "test-game", { index: 0, purpose: "player-order", players: 4 }), [4, 1, 3, 2]);
    expect("v1 city-cubes", await draw("gaugebot-dice-v1", "test-game", { index: 0, purpose: "city-cubes" }), [10, 2, 8, 4, 5, 6, 3, 12]);
    expect("v1 dividend-draw", await draw("gaugebot-dice-v1", "test-game", { index: 12, purpose: "dividend-draw", supply: { white: 7, pink: 8, black: 7 } }), ["white", "white", "pink"]);
    expect("v2 key player-order", hex(await sha256(v2.key(seed, "test-game", 0, "player-order", "1187654321098765435"))), "4893a2f636216eddc0556d9786b457714dbf153815ce047d25bb0a4dd3dad21e");
    expect("v2 player-order 5", await draw("gaugebot-dice-v2", "test-game", { index: 0, purpose: "player-order", players: 5, message_id: "1187654321098765435" }), [1, 4, 3, 2, 5]);
    expect("v2 dividend-draw", await draw("gaugebot-dice-v2", "test-game", { index: 12, purpose: "dividend-draw", supply: { white: 7, pink: 8, black: 7 }, message_id: "1187654987654321098" }), ["pink", "black", "black"]);
    expect("v1 privates-deck 5", await draw("gaugebot-dice-v1", "test-privates", { index: 0, purpose: "privates-deck", copies: 5 }),
      [50, 30, 25, 10, 50, 10, 20, 15, 30, 25, 5, 25, 30, 40, 10, 15, 25, 35, 40, 20, 40, 30, 35, 25, 35, 15, 20, 15, 50, 40, 10, 5, 35, 20, 10, 40, 5, 20, 50, 5, 15, 5, 35, 50, 30]);
    expect("v1 privates-chips 7", await draw("gaugebot-dice-v1", "test-privates", { index: 7, purpose: "privates-chips", bag: { red: 0, yellow: 1, green: 2, blue: 0, black: 1 } }), ["green", "green", "black", "yellow"]);
    expect("v2 privates-chips 1", await draw("gaugebot-dice-v2", "test-privates", { index: 1, purpose: "privates-chips", bag: { red: 2, yellow: 2, green: 2, blue: 2, black: 2 }, message_id: "1190123499999999999" }), ["blue", "yellow", "green", "black", "red", "blue", "black"]);
    expect("v1 signup-pick 6/4", await draw("gaugebot-dice-v1", "test-game", { index: 0, purpose: "signup-pick", signups: 6, picks: 4 }), [5, 3, 1, 2]);
    const header = { chain: "gaugebot-chain-v1", commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
      game_id: "test-game", kind: "irish-gauge", setup: { players: [], setup: {}, dice: "audited", spec: "gaugebot-dice-v2" }, version: "gaugebot-dice-v2" };
    const h0 = await linkHash(new Uint8Array(32), header);
    expect("chain header", hex(h0), "08ec27565372d7b3395c6f943c8fee0e644b938738a7541c3efe2172a17042db");
    const entry = { seq: 0, entry: { entry: "action", seat: 0, action: { action: "bid", amount: 7 } }, message_id: "1187654321098765436",
      author_id: "1", author_name: "ann", text: "**bid 7**", at: "2026-01-01T00:00:00Z", undone: true };
    expect("chain entry", hex(await linkHash(h0, entry)), "4cb463913a798df42a43b2a0c2c90fff931facda933502c434047db1203992ed");
    // §9.6: gaugebot-dice-v3 (keyed by the client seed), a hidden draw's sealed hash, gaugebot-chain-v2.
    const v3 = DICE_VERSIONS["gaugebot-dice-v3"], irish = "1187654321098765435", privates = "1190123456789012345";
    const key3 = await sha256(v3.key(seed, "test-game", 0, "player-order", irish));
    expect("v3 key player-order", hex(key3), "5df013b44fd7f48ac19c9a2d96dfa7a1aef4bb6b8b2cb3e0865b9fd2f16dac77");
    const w3 = stream(key3);
    expect("v3 first words", [w3.next(), w3.next(), w3.next(), w3.next()], [2063778766, 4028137347, 960946580, 2538185913]);
    const draw3 = (gameId, r, client) => recompute("gaugebot-dice-v3", seed, gameId, r, client);
    expect("v3 player-order 4", await draw3("test-game", { index: 0, purpose: "player-order", players: 4 }, irish), [3, 1, 2, 4]);
    expect("v3 city-cubes", await draw3("test-game", { index: 0, purpose: "city-cubes" }, irish), [10, 11, 3, 2, 9, 4, 5, 6]);
    expect("v3 key dividend-draw 12", hex(await sha256(v3.key(seed, "test-game", 12, "dividend-draw", irish))), "3781094f9c9f225dafb000a753e4de560a0eeca175c3d978b17acf9bcf3fd60a");
    expect("v3 dividend-draw", await draw3("test-game", { index: 12, purpose: "dividend-draw", supply: { white: 7, pink: 8, black: 7 } }, irish), ["white", "black", "pink"]);
    expect("v3 key privates-dealer", hex(await sha256(v3.key(seed, "test-privates", 0, "privates-dealer", privates))), "255fe67e4da307cfda3695e5a5396452079c7cfe2264f7e42a237eece1ca64f3");
    expect("v3 privates-dealer 4", await draw3("test-privates", { index: 0, purpose: "privates-dealer", players: 4 }, privates), [3]);
    const deckKey = await sha256(v3.key(seed, "test-privates", 0, "privates-deck", privates));
    expect("v3 key privates-deck", hex(deckKey), "bddb191bd56c91fa84b2d19836d5bcc9cb3411042ae1543a01c59cc99a848892");
    const deck = await draw3("test-privates", { index: 0, purpose: "privates-deck", copies: 6 }, privates);
    expect("v3 privates-deck 6", deck,
      [25, 40, 20, 40, 50, 30, 10, 40, 50, 35, 5, 20, 15, 15, 35, 15, 30, 35, 30, 10, 40, 10, 20, 35, 15, 5, 50, 5, 10, 25, 30, 10, 20, 35, 40, 5, 5, 15, 35, 10, 25, 50, 30, 5, 30, 25, 20, 50, 25, 40, 15, 50, 25, 20]);
    const sealedDeck = "b4e923c93499edd4ed5df3664f0962917b3b9045e6da90faa23301e769a2918c";
    expect("v3 sealed deck", await sealedHash(deckKey, deck), sealedDeck);
    expect("v3 key privates-chips 1", hex(await sha256(v3.key(seed, "test-privates", 1, "privates-chips", privates))), "68e92a304de3d3a7b05d797de89a99cb228378fb2881dfb63a3ae0fa103b09c4");
    expect("v3 privates-chips 1", await draw3("test-privates", { index: 1, purpose: "privates-chips", bag: { red: 2, yellow: 2, green: 2, blue: 2, black: 2 } }, privates), ["red", "black", "green", "black", "blue", "yellow", "red"]);
    const deckRecord = { index: 0, purpose: "privates-deck", copies: 6, population: [], count: 54, hidden: true, fills: "deck", sealed: sealedDeck, result: null };
    const record3 = { format: FORMAT_V3, version: "gaugebot-dice-v3", game_id: "test-privates", kind: "privates",
      commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd", client_seed: privates,
      setup: { players: [], setup: { deck: [5, 10] }, dice: "audited", spec: "gaugebot-dice-v3", setup_message: privates } };
    const header3 = chainHeader(record3, [deckRecord]);
    expect("v3 chain header canonical", canonical(header3), "{\"chain\":\"gaugebot-chain-v2\",\"client_seed\":\"1190123456789012345\",\"commitment\":\"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd\",\"format\":\"gaugebot-record-v3\",\"game_id\":\"test-privates\",\"kind\":\"privates\",\"setup\":{\"dice\":\"audited\",\"players\":[],\"setup\":{\"deck\":null},\"setup_message\":\"1190123456789012345\",\"spec\":\"gaugebot-dice-v3\"},\"version\":\"gaugebot-dice-v3\"}");
    const h3 = await linkHash(new Uint8Array(32), header3, CHAIN_V2);
    expect("v3 chain-v2 header", hex(h3), "a316b81bcf78946ec437c4dfe4aa884dfafd7e5c1d74bf35d3b4449d6af978f3");
    expect("v3 chain-v2 hidden deck link", hex(await linkHash(h3, deckRecord, CHAIN_V2)), "b2ca3c26525b2b1ab454822ceaec38cc70d94ab85cb0e86d7e38d2b96177f7cb");
    expect("v3 chain-v2 hidden deck link revealed", hex(await linkHash(h3, Object.assign({}, deckRecord, { result: deck }), CHAIN_V2)), "b2ca3c26525b2b1ab454822ceaec38cc70d94ab85cb0e86d7e38d2b96177f7cb");
    return { n, failures };
  }

  // ---- the page ----------------------------------------------------------------------------
  function show(box, verdict, summary, lines) {
    box.dataset.verdict = verdict;
    box.textContent = "";
    const p = document.createElement("p");
    p.className = "verdict " + (verdict === "failed" ? "fail" : verdict === "verified" ? "ok" : "note");
    p.textContent = summary;
    box.appendChild(p);
    const ul = document.createElement("ul");
    for (const line of lines) {
      const li = document.createElement("li");
      li.className = line.ok ? "ok" : line.note ? "note" : "fail";
      if (line.seq !== undefined && line.seq !== null) li.dataset.seq = String(line.seq);
      li.textContent = (line.ok ? "✓ " : line.note ? "· " : "✗ ") + line.text;
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }
  async function check(box, record) {
    if (!window.crypto || !crypto.subtle) {
      show(box, "unavailable", "This browser has no WebCrypto here (a page must be served over HTTPS): nothing was checked.", []);
      return;
    }
    const self = await selftest();
    const lines = [];
    if (self.failures.length) lines.push({ ok: false, text: "This verifier's own test vectors (DICE.md §9) fail: " + self.failures.join(", ") + "." });
    else lines.push({ ok: true, text: "This verifier reproduces the " + self.n + " test vectors of DICE.md §9." });
    lines.push(...(await verifyRecord(record)));
    const failed = lines.filter((l) => l.ok === false);
    const pending = lines.some((l) => l.note) && !record.seed && record.commitment;
    if (failed.length) {
      const seqs = failed.map((l) => l.seq).filter((s) => Number.isInteger(s));
      const first = seqs.length ? Math.min(...seqs) : null;
      box.dataset.failedAt = first === null ? "" : String(first);
      show(box, "failed", "FAILED: " + failed.length + " check" + (failed.length === 1 ? "" : "s") + " failed" + (first === null ? "" : ", the first at entry #" + first) + ". This record is not what the dice made.", lines);
    } else if (pending) {
      const sealed = (Array.isArray(record.draws) ? record.draws : []).filter((d) => d && d.hidden === true).map((d) => d.purpose);
      show(box, "pending", "Checked so far: nothing wrong. The draws are checked once the seed is revealed." + (sealed.length ? " The hidden draws (" + sealed.join(", ") + ") are sealed: they will be checkable after the reveal." : ""), lines);
    } else {
      show(box, "verified", "Verified: every check passed.", lines);
    }
  }
  async function run() {
    const box = document.getElementById("verify");
    if (!box) return;
    const source = box.dataset.record;
    if (!source) return;
    show(box, "running", "Checking the dice…", []);
    try {
      const answer = await fetch(source, { cache: "no-store" });
      if (!answer.ok) throw new Error("the record could not be downloaded (" + answer.status + ")");
      await check(box, await answer.json());
    } catch (e) {
      show(box, "failed", "FAILED: " + e.message + ".", []);
    }
  }
  // A record file chosen by the visitor (the page /verify).
  const file = document.getElementById("record-file");
  if (file) {
    file.addEventListener("change", async () => {
      const box = document.getElementById("verify");
      if (!file.files.length) return;
      try { await check(box, JSON.parse(await file.files[0].text())); }
      catch (e) { show(box, "failed", "FAILED: " + e.message + ".", []); }
    });
  }
  window.gaugebotVerify = run;
  window.gaugebotVerifier = { verifyRecord, selftest, canonical };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
