package db

import (
	"database/sql"
	"time"
)

// sqlTime scans a NOT NULL timestamptz in an embedded struct where a field
// named CreatedAt would clash with the embedding struct's own.
type sqlTime struct{ time.Time }

// Scan implements sql.Scanner.
func (t *sqlTime) Scan(src any) error {
	var nt sql.NullTime
	if err := nt.Scan(src); err != nil {
		return err
	}
	t.Time = nt.Time
	return nil
}
