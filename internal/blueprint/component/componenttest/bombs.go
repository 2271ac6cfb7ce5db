package componenttest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
)

// TarEntry is one entry of a hostile tar: a header and, for a type with
// data, Size zero bytes.
type TarEntry struct {
	Name string
	// Pad lengthens Name by Pad letters 'a' (written, never held).
	Pad      int
	Typeflag byte
	Size     int64
}

// GzipTar returns entries as a gzip-compressed tar, a name longer than
// ustar's 100 bytes in a PAX header of its own. Zero data and repeated
// letters compress to almost nothing, which is what a bomb is made of.
// The headers are written here, not by archive/tar, whose writer takes
// seconds for names of a MiB.
func GzipTar(entries []TarEntry) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zeros := make([]byte, 64<<10)
	for _, e := range entries {
		name := e.Name
		if len(name)+e.Pad > 100 {
			if err := writePAXPath(zw, name, e.Pad); err != nil {
				return nil, err
			}
			name = (name + strings.Repeat("a", min(e.Pad, 100)))[:100]
		}
		if _, err := zw.Write(header(name, e.Typeflag, e.Size)); err != nil {
			return nil, err
		}
		for left := e.Size; left > 0; left -= int64(len(zeros)) {
			if _, err := zw.Write(zeros[:min(left, int64(len(zeros)))]); err != nil {
				return nil, err
			}
		}
		if pad := (512 - e.Size%512) % 512; pad > 0 {
			if _, err := zw.Write(zeros[:pad]); err != nil {
				return nil, err
			}
		}
	}
	if _, err := zw.Write(zeros[:1024]); err != nil { // end of archive
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writePAXPath writes a PAX header whose path is name and pad letters:
// "<length> path=<value>\n", the length counting itself.
func writePAXPath(w io.Writer, name string, pad int) error {
	body := len(" path=") + len(name) + pad + 1
	n := body + 1
	for len(fmt.Sprint(n))+body != n {
		n++
	}
	if _, err := w.Write(header("PaxHeaders/x", tar.TypeXHeader, int64(n))); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "%d path=%s", n, name); err != nil {
		return err
	}
	letters := bytes.Repeat([]byte("a"), 64<<10)
	for left := pad; left > 0; left -= len(letters) {
		if _, err := w.Write(letters[:min(left, len(letters))]); err != nil {
			return err
		}
	}
	_, err := w.Write(append([]byte("\n"), make([]byte, (512-n%512)%512)...))
	return err
}

// header is a ustar header block.
func header(name string, typeflag byte, size int64) []byte {
	b := make([]byte, 512)
	copy(b[0:100], name)
	copy(b[100:108], "0000644\x00")
	copy(b[108:116], "0000000\x00")
	copy(b[116:124], "0000000\x00")
	copy(b[124:136], fmt.Sprintf("%011o\x00", size))
	copy(b[136:148], "00000000000\x00")
	b[156] = typeflag
	copy(b[257:265], "ustar\x0000")
	copy(b[148:156], "        ")
	sum := 0
	for _, c := range b {
		sum += int(c)
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum))
	return b
}

// LongNameDirs are n directory entries whose names are nameLen bytes
// long: headers only, each name kept by an extractor that charges only
// file contents.
func LongNameDirs(n, nameLen int) []TarEntry {
	out := make([]TarEntry, n)
	for i := range out {
		prefix := fmt.Sprintf("d%d/", i)
		out[i] = TarEntry{Name: prefix, Pad: max(1, nameLen-len(prefix)), Typeflag: tar.TypeDir}
	}
	return out
}

// ManyDirs are n directory entries with short names.
func ManyDirs(n int) []TarEntry {
	out := make([]TarEntry, n)
	for i := range out {
		out[i] = TarEntry{Name: fmt.Sprintf("d/%d", i), Typeflag: tar.TypeDir}
	}
	return out
}
