"""Reads a ZIP archive with Python's zipfile, a reader independent of web/src/zip.js, and prints
what the tests compare as JSON:

    /usr/bin/python3 tests/reference/read_zip.py archive.zip

{ "bad": the first entry whose CRC-32 does not match its bytes (zipfile.testzip) or null,
  "entries": [{ name, size, compressed, method, crc, utf8 }] in the archive's order,
  "sha256": { name: hex digest of the bytes read },
  and where the archive holds an exported GPT-2 folder:
  "safetensors": { tensor: { dtype, shape } } from model.safetensors' header, after checking
  that its data offsets tile the file's data exactly,
  "config": config.json parsed, "vocab": vocab.txt's lines, "readme": README.md's text }.
"""

import hashlib
import json
import struct
import sys
import zipfile


def safetensors_header(data):
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length].decode("utf-8"))
    header.pop("__metadata__", None)
    spans = sorted(tuple(t["data_offsets"]) for t in header.values())
    end = 0
    for start, stop in spans:
        if start != end:
            raise ValueError(f"model.safetensors: a gap or overlap at byte {start} (expected {end})")
        end = stop
    if 8 + length + end != len(data):
        raise ValueError(f"model.safetensors: {len(data)} bytes, its header accounts for {8 + length + end}")
    for name, t in header.items():
        count = 1
        for n in t["shape"]:
            count *= n
        if t["data_offsets"][1] - t["data_offsets"][0] != 4 * count or t["dtype"] != "F32":
            raise ValueError(f"model.safetensors: {name} is not float32 of shape {t['shape']}")
    return {name: {"dtype": t["dtype"], "shape": t["shape"]} for name, t in header.items()}


def main(path):
    with zipfile.ZipFile(path) as archive:
        out = {"bad": archive.testzip(), "entries": [], "sha256": {}}
        for info in archive.infolist():
            out["entries"].append(
                {
                    "name": info.filename,
                    "size": info.file_size,
                    "compressed": info.compress_size,
                    "method": info.compress_type,
                    "crc": info.CRC,
                    "utf8": bool(info.flag_bits & 0x800),
                }
            )
            data = archive.read(info)
            out["sha256"][info.filename] = hashlib.sha256(data).hexdigest()
            if info.filename == "model.safetensors":
                out["safetensors"] = safetensors_header(data)
            elif info.filename == "config.json":
                out["config"] = json.loads(data.decode("utf-8"))
            elif info.filename == "vocab.txt":
                out["vocab"] = data.decode("utf-8").split("\n")[:-1]
            elif info.filename == "README.md":
                out["readme"] = data.decode("utf-8")
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1])
