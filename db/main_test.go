package db_test

import (
	"testing"

	"github.com/turbinesim/turbinesim/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }
