//! The toolschema code generator.
