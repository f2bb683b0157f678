// Package jsonsafe makes values that hold infinite or NaN numbers encodable
// as JSON, which has no such numbers: they become null ("unknown").
package jsonsafe

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Marshal encodes v as indented JSON like json.MarshalIndent(v, "", "  ")
// followed by a newline, except that infinite and NaN numbers, which
// encoding/json refuses, are written as null. Values without them encode
// exactly as encoding/json encodes them.
func Marshal(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	var ue *json.UnsupportedValueError
	if errors.As(err, &ue) {
		b, err = json.MarshalIndent(Value(v), "", "  ")
	}
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Value returns a copy of v made of maps, slices and basic values that
// encodes as v does under encoding/json's rules (field names and tags,
// omitempty, embedded structs, Marshaler and TextMarshaler), with every
// infinite or NaN float replaced by nil.
func Value(v any) any { return value(reflect.ValueOf(v)) }

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func value(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface || v.Kind() == reflect.Map || v.Kind() == reflect.Slice) && v.IsNil() {
		return nil
	}
	if v.Type().Implements(marshalerType) || v.Type().Implements(textMarshalerType) {
		if b, err := json.Marshal(v.Interface()); err == nil {
			return json.RawMessage(b)
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return value(v.Elem())
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		return f
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Interface() // base64, as encoding/json writes []byte
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = value(v.Index(i))
		}
		return out
	case reflect.Map:
		out := make(map[string]any, v.Len())
		for _, k := range v.MapKeys() {
			out[mapKey(k)] = value(v.MapIndex(k))
		}
		return out
	case reflect.Struct:
		// A map: encoding/json writes its keys sorted, so the fields come
		// out in name order rather than declaration order.
		out := map[string]any{}
		addFields(out, v)
		return out
	}
	return v.Interface()
}

func mapKey(k reflect.Value) string {
	if k.Kind() == reflect.String {
		return k.String()
	}
	if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
		if b, err := tm.MarshalText(); err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(k.Interface())
}

// addFields adds the JSON fields of struct v to out, inlining embedded
// structs without a tag name; fields already present (from an outer
// struct) win, as in encoding/json.
func addFields(out map[string]any, v reflect.Value) {
	t := v.Type()
	var embedded []reflect.Value
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := v.Field(i)
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
				if fv.IsNil() {
					continue
				}
				fv = fv.Elem()
			}
			if ft.Kind() == reflect.Struct {
				embedded = append(embedded, fv)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(","+opts+",", ",omitempty,") && empty(fv) {
			continue
		}
		out[name] = value(fv)
	}
	for _, e := range embedded {
		inner := map[string]any{}
		addFields(inner, e)
		for k, x := range inner {
			if _, ok := out[k]; !ok {
				out[k] = x
			}
		}
	}
}

func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
