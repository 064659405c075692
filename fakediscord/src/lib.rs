//! A fake Discord for tests.
