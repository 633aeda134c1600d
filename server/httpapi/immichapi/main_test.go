package immichapi_test

import (
	"os"
	"testing"

	"github.com/photoctl/photoctl/server/servertest"
)

// TestMain lets servertest run the tests on PostgreSQL when
// PHOTOCTL_TEST_STORE=postgres (it drops the test databases at the end).
func TestMain(m *testing.M) { os.Exit(servertest.Main(m)) }
