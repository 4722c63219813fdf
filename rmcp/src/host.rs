//! The host side: a server's `tools/list` admitted as a catalog, and a model's calls checked
//! against it before they are sent.

use crate::check_arguments;
use crate::render::tool_result;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, PaginatedRequestParams, Tool,
};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, Peer, RoleClient, ServiceError};
use serde_json::Value;
use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};
use tokio::sync::{Mutex, watch};
use toolschema::catalog::{
    AdmissionError, AdmitOptions, AdmittedBundle, Authority, ToolDescriptor, admit_batch,
};

/// The backend tools are admitted under when the server does not name itself.
const UNNAMED_SERVER: &str = "mcp-server";

/// How a host admits a server's tools.
///
/// ```
/// use toolschema::catalog::{AdmissionMode, AdmitOptions};
/// use toolschema_rmcp::HostOptions;
/// let options = HostOptions::new()
///     .admit_options(AdmitOptions::new().mode(AdmissionMode::Quarantine))
///     .max_pages(50);
/// # let _ = options;
/// ```
#[derive(Clone, Debug)]
pub struct HostOptions {
    admit: AdmitOptions,
    client_info: ClientConfig,
    max_pages: usize,
}

impl Default for HostOptions {
    fn default() -> HostOptions {
        HostOptions {
            admit: AdmitOptions::new(),
            client_info: ClientConfig::default(),
            max_pages: 1000,
        }
    }
}

impl HostOptions {
    /// Strict admission with default schema options, rmcp's default client information, and
    /// at most 1,000 pages per `tools/list`.
    pub fn new() -> HostOptions {
        HostOptions::default()
    }

    /// Sets the admission mode and the schema options (limits, formats, registry documents).
    pub fn admit_options(mut self, options: AdmitOptions) -> HostOptions {
        self.admit = options;
        self
    }

    /// Sets what the client tells the server when it connects.
    pub fn client_info(mut self, info: ClientConfig) -> HostOptions {
        self.client_info = info;
        self
    }

    /// Sets how many pages one `tools/list` may take before the listing is refused, so that a
    /// server handing out cursors forever cannot keep the host listing.
    pub fn max_pages(mut self, pages: usize) -> HostOptions {
        self.max_pages = pages;
        self
    }
}

/// One admitted listing of a server's tools.
#[derive(Debug)]
pub struct HostCatalog {
    listing: u64,
    bundle: AdmittedBundle,
    tools: Vec<Tool>,
}

impl HostCatalog {
    /// The tools to show the model: the admitted ones, as the server described them, in the
    /// server's order.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The admission behind it. `rejected()` holds the quarantined tools' diagnostics, which
    /// are host-only: log them, never show them to the model.
    pub fn bundle(&self) -> &AdmittedBundle {
        &self.bundle
    }

    /// Which admission attempt produced it; attempts are numbered from 1, refused ones
    /// included.
    pub fn listing(&self) -> u64 {
        self.listing
    }
}

/// The outcome of the latest admission, as [`ToolHost::refreshes`] reports it.
#[derive(Clone, Debug)]
pub enum Refresh {
    /// No listing has been admitted or refused yet.
    NotYet,
    /// The listing was admitted and is now the catalog.
    Admitted(Arc<HostCatalog>),
    /// The listing was refused; the previous catalog stays.
    Refused(Arc<HostError>),
}

/// Why a listing was not admitted. Host-only, like every admission diagnostic.
#[derive(Debug)]
#[non_exhaustive]
pub enum HostError {
    /// `tools/list` failed.
    List(ServiceError),
    /// A page's `nextCursor` was one the listing had already followed.
    RepeatedCursor(String),
    /// The listing did not end within the allowed pages.
    TooManyPages(usize),
    /// The catalog was refused.
    Admission(AdmissionError),
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::List(error) => write!(f, "tools/list failed: {error}"),
            HostError::RepeatedCursor(cursor) => {
                write!(f, "tools/list returned the cursor {cursor:?} twice")
            }
            HostError::TooManyPages(pages) => {
                write!(f, "tools/list did not end within {pages} pages")
            }
            HostError::Admission(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for HostError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HostError::List(error) => Some(error),
            HostError::Admission(error) => Some(error),
            HostError::RepeatedCursor(_) | HostError::TooManyPages(_) => None,
        }
    }
}

struct Shared {
    options: HostOptions,
    catalog: RwLock<Arc<HostCatalog>>,
    // Serializes admissions, so that listings land in the order they were taken; holds the
    // number of attempts so far.
    listings: Mutex<u64>,
    refreshes: watch::Sender<Refresh>,
}

/// An MCP host's view of one server: its admitted tools, and the check every call passes
/// before it is sent.
///
/// `ToolHost` is an rmcp [`ClientHandler`]: serve it on a transport, admit once, and it
/// re-admits whenever the server sends `notifications/tools/list_changed`. A host with a
/// handler of its own calls [`admit`](ToolHost::admit) from its `on_tool_list_changed`.
///
/// ```ignore
/// let client = ToolHost::new(HostOptions::new()).serve(transport).await?;
/// let host = client.service();
/// host.admit(client.peer()).await?;
/// let tools = host.catalog().tools().to_vec();       // what the model is shown
/// let result = host.call_tool(client.peer(), call).await?; // invalid: isError, never sent
/// ```
#[derive(Clone)]
pub struct ToolHost {
    shared: Arc<Shared>,
}

impl ToolHost {
    /// A host with an empty catalog: every call is an unknown tool until a listing is
    /// admitted.
    pub fn new(options: HostOptions) -> ToolHost {
        let empty = admit_batch(Vec::new(), authority(UNNAMED_SERVER), &options.admit)
            .expect("an empty batch under an authority without grants is admitted");
        ToolHost {
            shared: Arc::new(Shared {
                options,
                catalog: RwLock::new(Arc::new(HostCatalog {
                    listing: 0,
                    bundle: empty,
                    tools: Vec::new(),
                })),
                listings: Mutex::new(0),
                refreshes: watch::Sender::new(Refresh::NotYet),
            }),
        }
    }

    /// The catalog calls are checked against now.
    pub fn catalog(&self) -> Arc<HostCatalog> {
        // Only complete catalogs are ever swapped in, so a poisoned lock still holds one.
        Arc::clone(
            &self
                .shared
                .catalog
                .read()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// Follows every admission as it lands, admitted or refused.
    pub fn refreshes(&self) -> watch::Receiver<Refresh> {
        self.shared.refreshes.subscribe()
    }

    /// Lists the server's tools, every page, and admits them as one batch in the configured
    /// mode. On success the result replaces the catalog; on any failure the previous catalog
    /// stays, whole, and the error is returned (and reported to [`refreshes`](Self::refreshes)).
    pub async fn admit(&self, peer: &Peer<RoleClient>) -> Result<Arc<HostCatalog>, Arc<HostError>> {
        let mut listings = self.shared.listings.lock().await;
        *listings += 1;
        let outcome = self.list_and_admit(peer, *listings).await.map_err(Arc::new);
        match &outcome {
            Ok(catalog) => {
                *self
                    .shared
                    .catalog
                    .write()
                    .unwrap_or_else(PoisonError::into_inner) = Arc::clone(catalog);
                self.shared
                    .refreshes
                    .send_replace(Refresh::Admitted(Arc::clone(catalog)));
            }
            Err(error) => {
                self.shared
                    .refreshes
                    .send_replace(Refresh::Refused(Arc::clone(error)));
            }
        }
        outcome
    }

    async fn list_and_admit(
        &self,
        peer: &Peer<RoleClient>,
        listing: u64,
    ) -> Result<Arc<HostCatalog>, HostError> {
        let listed = list_all(peer, self.shared.options.max_pages).await?;
        let server = peer
            .peer_info()
            .and_then(|info| info.server_info.as_ref().map(|server| server.name.clone()))
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| UNNAMED_SERVER.to_string());
        let revision = format!("listing {listing}");
        let descriptors = listed
            .iter()
            .map(|tool| {
                let schema = Value::Object(tool.input_schema.as_ref().clone());
                let descriptor = ToolDescriptor::new(tool.name.to_string(), &revision, schema)
                    .backend(server.as_str());
                match &tool.description {
                    Some(description) => descriptor.description(description.to_string()),
                    None => descriptor,
                }
            })
            .collect();
        let bundle = admit_batch(descriptors, authority(&server), &self.shared.options.admit)
            .map_err(HostError::Admission)?;
        let tools = listed
            .into_iter()
            .filter(|tool| bundle.registry().contains(&tool.name))
            .collect();
        Ok(Arc::new(HostCatalog {
            listing,
            bundle,
            tools,
        }))
    }

    /// Sends a model's call, once its arguments pass the admitted tool's schema.
    ///
    /// A call to a tool that is not in the catalog (never listed, or quarantined) or with
    /// invalid arguments is answered here, without a round trip, with the tool error the
    /// catalog's `Gateway` renders: `isError: true` and every failure's location, keyword and
    /// expectation, for the model to correct. Absent arguments are checked as an empty
    /// object and sent absent.
    pub async fn call_tool(
        &self,
        peer: &Peer<RoleClient>,
        mut call: CallToolRequestParams,
    ) -> Result<CallToolResult, ServiceError> {
        let catalog = self.catalog();
        if let Err(error) = check_arguments(catalog.bundle(), &call.name, &mut call.arguments) {
            return Ok(tool_result(&error));
        }
        peer.call_tool(call).await
    }
}

impl fmt::Debug for ToolHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolHost")
            .field("accepted", &self.catalog().bundle().accepted())
            .finish_non_exhaustive()
    }
}

impl ClientHandler for ToolHost {
    fn get_info(&self) -> ClientConfig {
        self.shared.options.client_info.clone()
    }

    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        // A refused listing is reported through `refreshes`, and the previous catalog stays.
        let _ = self.admit(&context.peer).await;
    }
}

// Authorization stays with the host, so the catalog's authority grants nothing; it names
// the server so that diagnostics say where a tool came from.
fn authority(server: &str) -> Authority {
    Authority::new("mcp-host", server)
}

async fn list_all(peer: &Peer<RoleClient>, max_pages: usize) -> Result<Vec<Tool>, HostError> {
    let mut tools = Vec::new();
    let mut followed = HashSet::new();
    let mut request: Option<PaginatedRequestParams> = None;
    for _ in 0..max_pages {
        let page = peer.list_tools(request).await.map_err(HostError::List)?;
        tools.extend(page.tools);
        let Some(cursor) = page.next_cursor else {
            return Ok(tools);
        };
        if !followed.insert(cursor.clone()) {
            return Err(HostError::RepeatedCursor(cursor));
        }
        request = Some(PaginatedRequestParams::default().with_cursor(Some(cursor)));
    }
    Err(HostError::TooManyPages(max_pages))
}
