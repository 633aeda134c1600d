package httpapi

import (
	"strings"

	"github.com/photoctl/photoctl/server/httpapi/openapi"
)

// RouteOperations lists every route of the table as "METHOD /openapi/path",
// for the external tests of the served document.
func RouteOperations() []string {
	var out []string
	for _, r := range (&Server{}).routes() {
		out = append(out, strings.ToUpper(r.method)+" "+openapi.PathTemplate(r.path))
	}
	return out
}
