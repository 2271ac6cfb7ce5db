package componenttest

import (
	"bytes"
	"compress/gzip"
	"sort"
)

// TarGz packs files into a gzip-compressed tar archive.
func TarGz(files map[string]string) ([]byte, error) {
	raw, err := Tar(files)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	err = zw.Close()
	return buf.Bytes(), err
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
