from models.schema import write

for path in write():
    print(f"wrote {path}")
