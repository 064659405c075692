//! Auditable dice: see docs/DICE.md.
