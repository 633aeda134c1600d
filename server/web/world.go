package web

// static/world.json, the map page's world outline, is generated from the
// Natural Earth countries the geocoder ships (internal/worldgen); committed,
// and rebuilt byte for byte by `go generate ./server/web`.
//go:generate go run ./internal/worldgen -o static/world.json
