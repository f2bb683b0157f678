package swf_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hpcwl/hpcwl/swf"
)

func Example() {
	log := `; Version: 2.2
; MaxProcs: 128
; UnixStartTime: 843480031
1 0 10 3477 4 -1 -1 4 53940 -1 1 12 12 -1 -1 -1 -1 -1
2 172 0 2488 25 -1 -1 25 3600 -1 1 13 13 -1 -1 -1 -1 -1
`
	r := swf.NewReader(strings.NewReader(log))
	h, err := r.Header()
	if err != nil {
		fmt.Println(err)
		return
	}
	procs, _ := h.MaxProcs()
	fmt.Println("machine:", procs, "processors")

	w := swf.NewWriter(os.Stdout)
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		j.Wait = 0 // as if the machine had been empty
		w.Write(&j)
	}
	w.Flush()
	// Output:
	// machine: 128 processors
	// 1 0 0 3477 4 -1 -1 4 53940 -1 1 12 12 -1 -1 -1 -1 -1
	// 2 172 0 2488 25 -1 -1 25 3600 -1 1 13 13 -1 -1 -1 -1 -1
}

func ExampleParseError() {
	r := swf.NewReader(strings.NewReader("1 0 10 abc 4 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1\n"))
	r.Name = "my.swf"
	_, err := r.Read()
	fmt.Println(err)
	// Output:
	// my.swf: line 1: field 4 (Run Time): "abc": expected an integer
}
