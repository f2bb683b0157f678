package talby_test

import (
	"os"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

// TestMain says, after the tests, how many did not run for want of the
// real logs.
func TestMain(m *testing.M) { os.Exit(testdata.Main(m)) }
