// Package query holds what a caller asks the store for: the filters of
// its lists, pages, count buckets, geo clusters, task claims and ranked
// searches, with the small answers that go with them (BucketCount,
// GeoCluster). Services take these values and the store reads them, so
// the HTTP layer fills them in without importing the store. It does no
// I/O and imports only the standard library and server/catalog.
package query

// Page asks for one page of a list: at most Limit rows that come after the
// row with id AfterID in the list's order (composite key: sort value, id).
type Page struct {
	Limit   int
	AfterID string
}
