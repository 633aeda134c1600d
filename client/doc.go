// Package client is the Go client of the photoctl API, built on resty. The
// CLI and the TUI talk to the server only through it; it imports the wire
// types of server/api and nothing else of the server.
//
// One Client carries one credential (an API key, or a first-party session
// whose tokens it refreshes through a TokenStore), retries 429 and 503 with
// backoff honouring Retry-After, walks cursor pages with iterators
// (iter.Seq2), streams uploads and downloads without holding a file in
// memory, and returns failures as *APIError with the server's detail, code
// and validation list. Methods are grouped by resource, one file each.
package client
