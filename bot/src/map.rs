//! The board rendered as a picture.
