//! Where generated code finds the runtime crate: `::toolschema`, or the path under which a
//! crate re-exports it ([`crate::Builder::runtime_path`]).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// The runtime crate's path, as tokens and as the text serde's attributes take.
#[derive(Clone)]
pub(crate) struct Runtime {
    path: syn::Path,
}

impl Default for Runtime {
    fn default() -> Runtime {
        Runtime {
            path: syn::parse_quote!(::toolschema),
        }
    }
}

impl Runtime {
    /// The runtime at `path` (`::my_facade::toolschema`, `crate::toolschema`), or why it is
    /// not a path.
    pub(crate) fn parse(path: &str) -> Result<Runtime, String> {
        let path: syn::Path =
            syn::parse_str(path).map_err(|e| format!("{path:?} is not a Rust path: {e}"))?;
        if path.segments.iter().any(|s| !s.arguments.is_none()) {
            return Err(format!(
                "{path:?} has generic arguments",
                path = text(&path)
            ));
        }
        Ok(Runtime { path })
    }

    /// The crate itself.
    pub(crate) fn path(&self) -> TokenStream {
        self.path.to_token_stream()
    }

    /// What generated argument types name (`__types`).
    pub(crate) fn types(&self) -> TokenStream {
        let path = &self.path;
        quote! { #path::__types }
    }

    /// serde's `crate = "…"`: the serde re-exported by the runtime.
    pub(crate) fn serde_crate(&self) -> String {
        format!("{}::__types::serde", text(&self.path))
    }

    /// serde's `deserialize_with = "…"` for an optional member that is present.
    pub(crate) fn present(&self) -> String {
        format!("{}::__types::present", text(&self.path))
    }
}

/// A path as Rust source, without the spaces token printing puts around `::`.
fn text(path: &syn::Path) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let lead = if path.leading_colon.is_some() {
        "::"
    } else {
        ""
    };
    format!("{lead}{}", segments.join("::"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_as_tokens_and_as_serde_text() {
        let default = Runtime::default();
        assert_eq!(default.serde_crate(), "::toolschema::__types::serde");
        let facade = Runtime::parse("::agent_kit::schema::toolschema").unwrap();
        assert_eq!(
            facade.present(),
            "::agent_kit::schema::toolschema::__types::present"
        );
        assert_eq!(
            facade.types().to_string(),
            ":: agent_kit :: schema :: toolschema :: __types"
        );
        let local = Runtime::parse("crate::deps::toolschema").unwrap();
        assert_eq!(
            local.serde_crate(),
            "crate::deps::toolschema::__types::serde"
        );
        assert!(Runtime::parse("not a path").is_err());
        assert!(Runtime::parse("::a::b<T>").is_err());
    }
}
