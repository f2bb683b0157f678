package figure_test

import (
	"os"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

func TestMain(m *testing.M) { os.Exit(testdata.Main(m)) }
