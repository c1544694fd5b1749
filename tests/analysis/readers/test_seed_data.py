"""The seed data is unchanged."""

import hashlib

from tests.support import SEED_DIR

EXPECTED = {
    "000_2e4aa40cf9124fb1.txt": "55df29e01aaeb5b1396845292346a046e433bceee7198d3ddb9dc14d6f862866",
    "002_a8c086987ad7c5d5.txt": "be194c7312d72f12f333662b424e5ae8bc0f085576251a5ff516d00495dea0e6",
    "004_724edf142a16c24b.txt": "da11995cb0639694bb5c3acdcd5d366da28d59ebfbd620471cb01480a62bb173",
}


def test_seed_files_have_the_documented_hashes():
    found = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in SEED_DIR.glob("*.txt")}
    assert found == EXPECTED
