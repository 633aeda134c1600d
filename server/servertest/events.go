package servertest

import "github.com/photoctl/photoctl/server/api"

// EventTypes lists the types of a library's events of one resource
// (among its first 200 events), oldest first: what a test checks that a
// change was written to the feed.
func (s *Server) EventTypes(token, libraryID, resourceID string) []string {
	s.T.Helper()
	var out []string
	for _, e := range List[api.Event](s, token, "/api/events?limit=200&library_id="+libraryID) {
		if e.ResourceID == resourceID {
			out = append(out, e.Type)
		}
	}
	return out
}
