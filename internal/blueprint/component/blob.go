package component

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"
)

// maxExtractedBytes bounds what a blob archive may expand to: every byte
// the extractor reads or keeps counts (entryCost), not only file contents.
const maxExtractedBytes = 64 << 20

// maxTarEntries bounds the entries of a blob archive. A blueprint has a
// handful of files; each entry, even an empty directory, costs a map entry.
const maxTarEntries = 10_000

// tarBlockSize is the size of one tar header block.
const tarBlockSize = 512

// BlobFS returns a resource's content as a filesystem: a directory of a
// component archive as is, a tar or tar.gz blob (local or from a
// registry) extracted into memory.
func (c *Component) BlobFS(res Resource) (fs.FS, error) {
	if c == nil {
		return nil, ErrNoComponent
	}
	if c.oci == nil && c.Archive != nil {
		if name, _, err := c.BlobPath(res); err == nil {
			if info, err := fs.Stat(c.Archive, name); err == nil && info.IsDir() {
				return fs.Sub(c.Archive, name)
			}
		}
	}
	ctx, cancel := fetchContext()
	defer cancel()
	b, err := c.Fetch(ctx, res)
	if err != nil {
		return nil, err
	}
	return ExtractTar(bytes.NewReader(b.Data))
}

// ExtractTar reads a tar stream, gzip compressed or not, into memory.
// Entries escaping the root and oversized archives are rejected.
func ExtractTar(r io.Reader) (fs.FS, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("blob is not valid gzip: %w", err)
		}
		defer func() { _ = gz.Close() }()
		src = gz
	}
	tr := tar.NewReader(src)
	out := fstest.MapFS{}
	total, entries := int64(0), 0
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("blob is not a tar archive: %w", err)
		}
		if entries++; entries > maxTarEntries {
			return nil, fmt.Errorf("tar archive has more than %d entries", maxTarEntries)
		}
		if total += entryCost(hdr); total > maxExtractedBytes {
			return nil, fmt.Errorf("tar archive expands to more than %d bytes (names, headers and contents)", maxExtractedBytes)
		}
		name := path.Clean(strings.TrimPrefix(hdr.Name, "/"))
		if name == "." {
			continue
		}
		if !fs.ValidPath(name) {
			return nil, fmt.Errorf("tar entry %q escapes the archive", hdr.Name)
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			out[name] = &fstest.MapFile{Mode: fs.ModeDir | 0o555}
		case tar.TypeReg:
			data, err := io.ReadAll(io.LimitReader(tr, hdr.Size))
			if err != nil {
				return nil, fmt.Errorf("tar entry %q: %w", hdr.Name, err)
			}
			out[name] = &fstest.MapFile{Data: data, Mode: 0o444}
		}
	}
	return out, nil
}

// entryCost is what one entry makes the extractor read or keep: its
// header block, its names and PAX records (up to a MiB each, archive/tar's
// limit, and kept in the header), and its data — skipped entries' data is
// still decompressed and read past.
func entryCost(hdr *tar.Header) int64 {
	n := int64(tarBlockSize + len(hdr.Name) + len(hdr.Linkname) + len(hdr.Uname) + len(hdr.Gname))
	for k, v := range hdr.PAXRecords {
		n += int64(len(k) + len(v))
	}
	return n + max(hdr.Size, 0)
}
