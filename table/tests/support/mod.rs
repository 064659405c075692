//! What the core's tests share: the toy game ([`pile`]) and the driving of tables on the memory
//! store ([`play`]). Each test file uses part of it.

#![allow(dead_code)]

pub mod pile;
pub mod play;
