# Turbine simulation service. `make run` starts everything (a private
# PostgreSQL under ./data/pg unless DATABASE_URL is set); `make test` runs
# every test of the repository against real PostgreSQL and Chromium.

GO      ?= go
BIN     := bin/turbined
PKG     := ./cmd/turbined
# Two test binaries at a time: the machine has two cores and each database
# test package starts its own PostgreSQL.
TESTFLAGS ?= -p 2 -timeout 14m

.PHONY: run build test generate assets check clean

run: build
	exec ./$(BIN) serve

build:
	$(GO) build -o $(BIN) $(PKG)

test:
	$(GO) test $(TESTFLAGS) ./...

# Regenerate views/*_templ.go (committed, so plain builds need no templ run).
generate:
	$(GO) tool templ generate

# Refresh the vendored front-end assets from package-lock.json (committed,
# so plain builds need no Node).
assets:
	npm ci --no-audit --no-fund
	mkdir -p assets/js/ext assets/css
	cp node_modules/htmx.org/dist/htmx.min.js assets/js/htmx.min.js
	cp node_modules/htmx-ext-ws/dist/ws.js assets/js/ext/ws.js
	cp node_modules/echarts/dist/echarts.min.js assets/js/echarts.min.js
	npx tailwindcss -c tailwind.config.js -i assets/css/app.src.css -o assets/css/app.css --minify

# Formatting and vet, as CI runs them.
check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '_templ\.go$$')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin
