// Package ingest reads agent stream files into sessions for the store.
//
// It finds the files (a logs folder of captures, the files and folders a
// user names, the agent CLIs' own histories), reads each file once with
// several listeners (the summary builder, the review events it yields, the
// usage of a history file), and runs the reads in parallel, handing the
// finished sessions to the store in batches.
//
// It knows no SQL. What an incremental import must ask (which files are
// indexed at which size and mtime, which work items are running, which
// runs were recorded) and what it hands over (encoded rows, written in one
// transaction per batch) go through the Store interface, which *store.Store
// implements.
//
// Stream content and the folders it lies in are untrusted: a file found by
// walking a folder is read only when it lies, links resolved, inside that
// folder, and is opened through an os.Root on it.
package ingest
