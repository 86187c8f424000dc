import sys, zipfile, collections, os
# Used by bench/device/make-pack.sh.
# prune.py LOADED_TXT SRC_DIR OUT_DIR JARNAME...: keeps non-class entries and classes of loaded packages
loaded = collections.defaultdict(set)
for line in open(sys.argv[1]):
    path, cls = line.split()
    loaded[os.path.basename(path)].add(cls.rsplit('.', 1)[0].replace('.', '/') if '.' in cls else '')
src, out = sys.argv[2], sys.argv[3]
for name in sys.argv[4:]:
    pk = loaded.get(name, set())
    zin = zipfile.ZipFile(os.path.join(src, name))
    zout = zipfile.ZipFile(os.path.join(out, name), 'w', zipfile.ZIP_STORED)
    kept = dropped = 0
    for info in zin.infolist():
        n = info.filename
        if n.endswith('.class') and not n.startswith('META-INF/'):
            if n.rsplit('/', 1)[0] not in pk:
                dropped += 1; continue
        if n.startswith('META-INF/native/') and not n.endswith('/') and ('quiche' in n or 'windows' in n or 'osx' in n or 'x86_64' not in n):
            dropped += 1; continue
        if n.startswith('META-INF/native/') and ('aarch' in n or 'riscv' in n or 's390' in n or 'ppc' in n or 'loongarch' in n):
            dropped += 1; continue
        zout.writestr(info, zin.read(n), compress_type=zipfile.ZIP_STORED); kept += 1
    zout.close()
    print(name, len(pk), 'packages;', kept, 'kept', dropped, 'dropped', os.path.getsize(os.path.join(out, name)) // 1024, 'KiB')
