package web_test

import (
	"os"
	"testing"

	"github.com/photoctl/photoctl/server/servertest"
)

// TestMain lets servertest run the browser tests on PostgreSQL when
// PHOTOCTL_TEST_STORE=postgres (it drops the test databases at the end).
func TestMain(m *testing.M) { os.Exit(servertest.Main(m)) }
