// Package turbines embeds the bundled reference turbines: one gzipped
// decks.DeckModel per demo (<id>.json.gz) and manifest.json. They are
// generated from the published decks by `go run ./cmd/demos-build`; the
// published files themselves are not part of the repository.
package turbines

import (
	"embed"
)

// FS holds manifest.json and the *.json.gz models.
//
//go:embed manifest.json *.json.gz
var FS embed.FS
