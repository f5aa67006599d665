// Package migrations embeds the goose SQL migrations of the service's
// PostgreSQL schema. They are applied by `turbined migrate`, at `turbined
// serve` start-up, and once per test template by db/dbtest.
package migrations

import "embed"

// FS holds every *.sql migration, named NNNNN_description.sql.
//
//go:embed *.sql
var FS embed.FS
