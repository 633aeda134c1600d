package httpapi_test

// searchRows are the search operations of the authorization matrix
// (authz_matrix_test.go): any member may search the shared library; a
// non-member gets 404; a key scoped to another library, 403.
func searchRows() []matrixRow {
	return []matrixRow{
		{method: "GET", path: "/api/search", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/search?query=cell&library_id=" + c.shared })},
		{method: "POST", path: "/api/search", needs: needRead, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/search", file: &cellFile{name: "query.jpg", data: c.jpeg(), field: "image",
				form: map[string]string{"library_id": c.shared}}}
		}},
	}
}
