// Package assets embeds the front-end files served under /assets/: the
// vendored htmx, htmx-ext-ws and ECharts builds, our charts.js and the
// Tailwind build of css/app.css. `make assets` refreshes them from
// package-lock.json; they are committed so that `go build` needs no Node.
package assets

import "embed"

// FS holds css/ and js/ (app.src.css, the Tailwind input, is not served).
//
//go:embed css/app.css js
var FS embed.FS
