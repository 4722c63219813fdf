//! Content encodings and media types.
