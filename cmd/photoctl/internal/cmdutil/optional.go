package cmdutil

// Optional is nil for "", else a pointer to s: the optional strings of
// create and update requests.
func Optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
