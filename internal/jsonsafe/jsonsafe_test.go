package jsonsafe

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

type inner struct {
	H     float64 `json:"h"`
	Skip  float64 `json:"-"`
	Empty string  `json:"empty,omitempty"`
}

type stamp int

func (s stamp) MarshalText() ([]byte, error) { return []byte("t" + string(rune('0'+s))), nil }

type outer struct {
	*inner
	Name   string             `json:"name"`
	Values []float64          `json:"values"`
	ByName map[string]float64 `json:"by_name"`
	When   stamp              `json:"when"`
	Ptr    *float64           `json:"ptr"`
	hidden float64
}

func TestMarshal(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		v    any
		want string // compact JSON
	}{
		{"finite values as encoding/json", outer{inner: &inner{H: 0.5}, Name: "a", Values: []float64{1}, When: 2},
			`{"h":0.5,"name":"a","values":[1],"by_name":null,"when":"t2","ptr":null}`},
		{"non-finite values null", outer{inner: &inner{H: nan, Skip: nan}, Name: "b", Values: []float64{1, inf},
			ByName: map[string]float64{"x": -inf, "y": 2}, When: 3, Ptr: &nan, hidden: nan},
			`{"by_name":{"x":null,"y":2},"h":null,"name":"b","ptr":null,"values":[1,null],"when":"t3"}`},
		{"bare NaN", nan, `null`},
	}
	for _, tc := range tests {
		b, err := Marshal(tc.v)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, b); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if c.String() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, c.String(), tc.want)
		}
	}
}
