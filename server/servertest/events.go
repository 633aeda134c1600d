package servertest

import "github.com/photoctl/photoctl/server/api"

// Events lists a library's first 200 events, oldest first.
func (s *Server) Events(token, libraryID string) []api.Event {
	s.T.Helper()
	return List[api.Event](s, token, "/api/events?limit=200&library_id="+libraryID)
}

// EventTypes lists the types of a library's events of one resource
// (among its first 200 events), oldest first: what a test checks that a
// change was written to the feed.
func (s *Server) EventTypes(token, libraryID, resourceID string) []string {
	s.T.Helper()
	var out []string
	for _, e := range s.Events(token, libraryID) {
		if e.ResourceID == resourceID {
			out = append(out, e.Type)
		}
	}
	return out
}
