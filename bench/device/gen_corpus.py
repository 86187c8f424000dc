import json, random, sys
# gen_corpus.py SAMPLE_JSONL N OUT: N unique-id docs, each 1-4 random WordNet glosses joined (about 80 real tokens at max 128)
texts = [json.loads(l)["text"] for l in open(sys.argv[1])]
n = int(sys.argv[2]); rnd = random.Random(7)
with open(sys.argv[3], "w") as f:
    for i in range(n):
        k = rnd.randint(1, 4)
        f.write(json.dumps({"id": f"d{i}", "text": " ".join(rnd.choice(texts) for _ in range(k))}) + "\n")
