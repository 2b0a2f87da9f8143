// Package httpapi serves sift's store and captured streams over HTTP: the
// batch-pull API of `sift serve` for orchestrators and dashboards.
//
// Endpoints (every body is JSON, errors included, except raw streams):
//
//	GET  /healthz
//	     {"status":"ok","writes":true}; 503 when the store does not answer.
//	GET  /workitems/{id}/agent-streams[?limit=&offset=&includeLineCount=true]
//	     The stream files of a work item on disk, oldest write first:
//	     fileName, phase, iteration, agentKind, size, lastWriteTime,
//	     summarized, and lineCount only with includeLineCount=true.
//	GET  /workitems/{id}/agent-streams/{fileName}
//	     The raw stream, application/x-ndjson, streamed from disk up to
//	     its size when opened.
//	GET  /workitems/{id}/agent-streams/{fileName}/summary
//	     The summary, the same JSON as `sift summary --json`: from the
//	     store, or analysed on demand in memory (a GET never writes).
//	GET  /sessions[?sort=&asc=&flagged=&undecided=&agent=&workItem=&since=&text=&full=&limit=&offset=]
//	     The inbox, with the filters and sorts of `sift list`.
//	GET  /sessions/{ref}/decisions, /sessions/{workItemId}/{fileName}/decisions
//	     The current decision of each target and the history, oldest
//	     first; ref is a unique prefix of a file name.
//	POST /decisions
//	     {"session" | "workItemId"+"fileName", "turnId", "toolCallId",
//	     "decision", "note", "reviewerId"}: the fields of `sift decide`;
//	     201 with the decision once it is durable.
//	POST /sessions/{workItemId}/{fileName}/claim
//	     {"reviewerId", "minutes"}: the reviewer claims the session, as
//	     `sift claim` (201 with the claim); {"reviewerId", "release": true}
//	     ends their claim (204). Another reviewer's live claim is 409
//	     claimed, naming them; nothing to release is 409 not_claimed.
//
// Lists take limit (default 100, 1 to 500) and offset, and say nextOffset
// when another page may follow. A bad limit is 400 invalid_limit.
//
// Errors are {"code": "...", "message": "..."}. The code is stable; the
// message is for people and never names a filesystem path. Codes:
// invalid_path, invalid_limit, invalid_parameter, invalid_body,
// unknown_field, body_too_large (over 64 KiB), unsupported_media_type,
// unauthorized, writes_disabled, forbidden, not_found, ambiguous_session,
// method_not_allowed, unavailable, internal, claimed, not_claimed.
//
// Safety: request paths with dot segments, encoded dots, slashes or
// backslashes, raw backslashes, NUL or empty segments are refused before
// routing; work item ids and file names must be single safe path elements;
// a file is served only if, symlinks followed, it lies under the logs root,
// and it is opened through an os.Root. On a listener that is not
// loopback-only the server needs a bearer token to start, and every request
// but GET /healthz must carry it (401 unauthorized otherwise, before
// routing); the token is compared as a SHA-256 digest in constant time. On
// loopback, reads need no token, the server answers only to loopback host
// names (against DNS rebinding), and writes need the token when one is
// configured. Cross-origin browser writes are refused. A GET never writes
// to the store. Each write to a client has its own deadline, so a client
// that stops reading is dropped.
package httpapi
