//! The JSON-Schema-Test-Suite, draft 2020-12: one test per case.

#![allow(non_snake_case)]
#![deny(warnings)]

use toolschema_conformance::{Expect, run_case};

include!(concat!(env!("OUT_DIR"), "/suite_cases.rs"));
