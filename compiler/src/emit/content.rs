//! `contentEncoding`, `contentMediaType` and `contentSchema`, when they assert.

use super::{Cx, Flavour, Frame, Subject};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use toolschema_core::ir::ContentCheck;

impl Cx<'_> {
    /// The content keywords, on the string `s`.
    pub(super) fn content(&self, f: &mut Frame, content: &ContentCheck) -> TokenStream {
        f.assigns_valid = true;
        self.records();
        let decode = match content.encoding {
            Some(encoding) => {
                let variant = format_ident!("{}", format!("{encoding:?}"));
                let absolute = self.join(f, "/contentEncoding");
                quote! {
                    let decoded = rt::ContentEncoding::#variant.decode(s);
                    let bytes: Option<&[u8]> = decoded.as_deref();
                    if bytes.is_none() {
                        if C {
                            rt::record(failures, ip, &kp.key("contentEncoding"), #absolute, "contentEncoding",
                                rt::messages::content_encoding(rt::ContentEncoding::#variant.name()));
                        }
                    }
                }
            }
            None => quote! { let bytes: Option<&[u8]> = Some(s.as_bytes()); },
        };
        let parse = match content.media_type {
            Some(media_type) => {
                let variant = format_ident!("{}", format!("{media_type:?}"));
                let absolute = self.join(f, "/contentMediaType");
                let schema = match content.schema {
                    Some(schema) => {
                        // The decoded document is a `Value`, even under a member name.
                        let call = self.call(
                            Subject::Value,
                            schema,
                            Flavour::Same,
                            quote! { &document },
                            None,
                            quote! { &kp.key("contentSchema") },
                            None,
                        );
                        quote! { Some(document) => #call, }
                    }
                    None => quote! { Some(_) => true, },
                };
                quote! {
                    Some(bytes) => match rt::ContentMediaType::#variant.parse(bytes) {
                        #schema
                        None => {
                            if C {
                                rt::record(failures, ip, &kp.key("contentMediaType"), #absolute, "contentMediaType",
                                    rt::messages::content_media_type(rt::ContentMediaType::#variant.name()));
                            }
                            false
                        }
                    },
                }
            }
            None => quote! {},
        };
        let verdict = if content.media_type.is_some() {
            quote! {
                let ok = match bytes {
                    #parse
                    None => false,
                };
            }
        } else {
            quote! { let ok = bytes.is_some(); }
        };
        let failed = if f.subject == Subject::Name {
            f.assigns_valid = false;
            quote! { return Ok(false); }
        } else {
            quote! {
                if !C {
                    return Ok(false);
                }
                valid = false;
            }
        };
        quote! {
            #decode
            #verdict
            if !ok { #failed }
        }
    }
}
