package app_test

import (
	"os"
	"testing"

	"github.com/photoctl/photoctl/server/blob/s3test"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestMain lets servertest run the tests on PostgreSQL when
// PHOTOCTL_TEST_STORE=postgres (it drops the test databases at the end),
// and is the fake bucket's process of BenchmarkCopyBlobsScale.
func TestMain(m *testing.M) {
	if s3test.ServeProcess() {
		return
	}
	os.Exit(servertest.Main(m))
}
