-- Each process's lease on life (several processes share one database): a process renews its
-- row every second; it is alive while `expires` (the database's clock) is ahead and its liveness
-- session is connected. A process that hangs (SIGSTOP, a stuck disk) stops renewing and loses
-- its channels when its lease runs out, although its connections stay open.
CREATE TABLE process_leases (
    token TEXT PRIMARY KEY NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
