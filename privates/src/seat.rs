//! Seats: who is who at the table.

/// A seat at the table, 0-based in seat order.
pub type Seat = usize;
