//! Asserted `contentEncoding`, `contentMediaType` and `contentSchema`.

use super::{At, Interpreter};
use crate::eval::{Flow, Sink};
use crate::ir::{ContentCheck, Node};
use crate::messages;

impl Interpreter<'_> {
    /// The content keywords on string `s`: decoded, parsed, and the document checked.
    pub(super) fn content<const C: bool>(
        &self,
        node: &Node,
        content: &ContentCheck,
        s: &str,
        at: At<'_>,
        st: &mut Sink,
    ) -> Flow {
        let decoded;
        let bytes: &[u8] = match content.encoding {
            Some(encoding) => match encoding.decode(s) {
                Some(b) => {
                    decoded = b;
                    &decoded
                }
                None => {
                    if C {
                        let message = messages::content_encoding(encoding.name());
                        self.fail(st, node, "contentEncoding", at, message);
                    }
                    return Ok(false);
                }
            },
            None => s.as_bytes(),
        };
        let Some(media_type) = content.media_type else {
            return Ok(true);
        };
        let Some(document) = media_type.parse(bytes) else {
            if C {
                let message = messages::content_media_type(media_type.name());
                self.fail(st, node, "contentMediaType", at, message);
            }
            return Ok(false);
        };
        match content.schema {
            Some(schema) => {
                let kp = at.kp.key("contentSchema");
                self.eval::<C>(schema, &document, At { kp: &kp, ..at }, st, None)
            }
            None => Ok(true),
        }
    }
}
