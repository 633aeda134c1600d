// Package mcp is the assistant interface: a Model Context Protocol server
// whose tools search, show and edit a photo library for one caller. The
// tools are one table (tools_read.go, tools_write.go) over a Backend, served
// over Streamable HTTP by `photoctl serve` (/api/mcp) and over stdio by
// `photoctl mcp`. It is the only package importing the MCP SDK outside tests.
package mcp

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/ratelimit"
)

// Options bind a server to one caller.
type Options struct {
	// Allows reports whether the caller's credential grants an action; tools
	// it does not grant are not listed, and calling one is a tool error.
	// nil allows everything (the stdio proxy, where the server decides).
	Allows func(catalog.Action) bool
	// Limiter charges each tool call Costs under LimitKey; nil disables
	// per-tool limits.
	Limiter  *ratelimit.Limiter
	LimitKey string
	Costs    Costs
	// Version is reported to clients in the server info.
	Version string
	// Schemas caches tool schemas across servers (one server per request).
	Schemas *sdk.SchemaCache
}

// Costs are the rate-limit weights of the tool classes (config `mcp.`);
// zero values take DefaultCosts'.
type Costs struct {
	Read   float64 `koanf:"read"`
	Search float64 `koanf:"search"`
	View   float64 `koanf:"view"`
	Write  float64 `koanf:"write"`
}

// DefaultCosts: a search runs the text index, a view reads and sends an
// image, so they weigh more than a lookup or an edit.
var DefaultCosts = Costs{Read: 1, Search: 5, View: 4, Write: 2}

func (c Costs) of(class costClass) float64 {
	pick := func(v, def float64) float64 {
		if v > 0 {
			return v
		}
		return def
	}
	switch class {
	case costSearch:
		return pick(c.Search, DefaultCosts.Search)
	case costView:
		return pick(c.View, DefaultCosts.View)
	case costWrite:
		return pick(c.Write, DefaultCosts.Write)
	default:
		return pick(c.Read, DefaultCosts.Read)
	}
}

// CostOf returns the weight of the named tool under c (0 for an unknown
// tool), for documentation and tests.
func (c Costs) CostOf(tool string) float64 {
	for _, t := range toolTable {
		if t.name == tool {
			return c.of(t.cost)
		}
	}
	return 0
}

type costClass int

const (
	costRead costClass = iota
	costSearch
	costView
	costWrite
)

// tool is one entry of the tool table: what it needs and how it is added.
type tool struct {
	name   string
	action catalog.Action
	cost   costClass
	add    func(s *sdk.Server, b Backend, t *sdk.Tool)
	desc   string
	write  bool
}

// ToolNames lists every tool, read tools first (for docs and tests).
func ToolNames() []string {
	out := make([]string, len(toolTable))
	for i, t := range toolTable {
		out[i] = t.name
	}
	return out
}

// New returns an MCP server whose tools act through b for the caller that
// opts describe.
func New(b Backend, opts Options) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "photoctl", Title: "photoctl photo library", Version: opts.Version},
		&sdk.ServerOptions{SchemaCache: opts.Schemas,
			Instructions: "Tools over the user's photo library. Find assets with search_assets (page with next_cursor), " +
				"look at them with get_asset and view_asset, organise with albums, people and edits. Nothing is ever " +
				"deleted permanently: trash_assets moves to the trash and restore_assets brings back."})
	for _, t := range toolTable {
		t.add(s, b, &sdk.Tool{Name: t.name, Description: t.desc,
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: !t.write, DestructiveHint: ptr(t.name == "trash_assets"),
				IdempotentHint: t.name != "merge_people", OpenWorldHint: ptr(false)}})
	}
	s.AddReceivingMiddleware(gate(opts))
	addResources(s, b)
	return s
}

// gate lists only the tools the credential grants and refuses the others,
// then charges the per-tool rate limit, before any tool runs.
func gate(opts Options) sdk.Middleware {
	allowed := func(t tool) bool { return opts.Allows == nil || opts.Allows(t.action) }
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			switch method {
			case "tools/list":
				res, err := next(ctx, method, req)
				if list, ok := res.(*sdk.ListToolsResult); ok && err == nil {
					list.Tools = slices.DeleteFunc(list.Tools, func(st *sdk.Tool) bool {
						t, ok := lookup(st.Name)
						return ok && !allowed(t)
					})
				}
				return res, err
			case "resources/read":
				read, _ := req.(*sdk.ReadResourceRequest)
				if read == nil || read.Params == nil {
					break
				}
				if r, ok := lookupResource(read.Params.URI); ok && opts.Allows != nil && !opts.Allows(r.action) {
					return nil, fmt.Errorf("forbidden: this credential's scope does not grant %q", r.action)
				}
			case "tools/call":
				call, _ := req.(*sdk.CallToolRequest)
				if call == nil || call.Params == nil {
					break
				}
				t, ok := lookup(call.Params.Name)
				if !ok {
					break
				}
				if !allowed(t) {
					return toolError(fmt.Sprintf("forbidden: this credential's scope does not grant %q, which %s needs; "+
						"use a key or token with that action", t.action, t.name), nil), nil
				}
				if opts.Limiter != nil {
					if ok, wait := opts.Limiter.Allow(opts.LimitKey, opts.Costs.of(t.cost)); !ok {
						secs := ratelimit.RetryAfterSeconds(wait)
						return toolError(fmt.Sprintf("rate limited: %s costs %g and the assistant budget is spent; retry after %d seconds",
							t.name, opts.Costs.of(t.cost), secs), sdk.Meta{"retry_after_seconds": secs}), nil
					}
				}
			}
			return next(ctx, method, req)
		}
	}
}

func lookup(name string) (tool, bool) {
	for _, t := range toolTable {
		if t.name == name {
			return t, true
		}
	}
	return tool{}, false
}

func toolError(msg string, meta sdk.Meta) *sdk.CallToolResult {
	return &sdk.CallToolResult{Meta: meta, IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}

func ptr[T any](v T) *T { return &v }

// Factory builds the per-request servers of the HTTP transport, sharing
// the tool schemas between them.
type Factory struct {
	schemas *sdk.SchemaCache
}

// NewFactory returns a Factory.
func NewFactory() *Factory { return &Factory{schemas: sdk.NewSchemaCache()} }

// Handler serves one Streamable HTTP request for the caller that b and
// opts describe. The transport is stateless (no Mcp-Session-Id): every
// request carries its credential and gets a server bound to it, so no
// session can outlive or change its caller. Answers are plain JSON.
func (f *Factory) Handler(b Backend, opts Options) http.Handler {
	opts.Schemas = f.schemas
	s := New(b, opts)
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true,
		// Requests are authenticated by bearer credentials, never by
		// cookies, so a rebound DNS name gains nothing; and behind a
		// reverse proxy the Host is rightly not localhost.
		DisableLocalhostProtection: true,
	})
}
