package swf

import "strconv"

func fmtSscan(s string, f *float64) (int, error) {
	v, err := strconv.ParseFloat(s, 64)
	*f = v
	return 1, err
}
