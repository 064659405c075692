//! A computer player for Irish Gauge (docs/AUTOMA.md). Pure: no I/O, no async, no clock.
