"""PTF tests of the TNA load table on Tofino (model or ASIC), BfRuntime style.

They replay the STF files of p4/tests (the same files CI plays against the golden model and
`make p4-check` runs on BMv2): every `packet` is sent, every `expect` verified on its port,
every `check_counter` read back through BfRuntime. Needs an Intel / open-p4studio SDE; this
project's CI cannot run them (p4/README.md, "Tofino").

Build the program with the test clock so the files decide each packet's slot:

    strackgen p4 --target tna --out build
    bf-p4c --std p4-16 --arch tna -DLT_TEST_CLOCK -o build/load_table_tna build/load_table_tna.p4

then, with the model or the switch running that program:

    ptf --test-dir p4/tests/ptf --pypath $SDE_INSTALL/lib/python3*/site-packages/tofino \\
        --interface 0@veth1 --interface 1@veth3 --test-params "stf_dir='p4/tests'"

STF port N is PTF port `swports[N]` (the `--interface` list, in order).
"""

import glob
import os

import bfrt_grpc.client as gc
import ptf.testutils as testutils
from bfruntime_client_base_tests import BfRuntimeTest
from ptf.mask import Mask

PROGRAM = "load_table_tna"


def parse_stf(path):
    """The file's lines as ("packet", port, bytes), ("expect", port, hex, exact) and
    ("check_counter", name, index, packets), in order."""
    out = []
    with open(path) as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            cmd = words[0].lower()
            if cmd == "packet":
                out.append(("packet", int(words[1]), bytes.fromhex("".join(words[2:]))))
            elif cmd == "expect":
                data = "".join(words[2:])
                exact = data.endswith("$")
                out.append(("expect", int(words[1]), data.rstrip("$"), exact))
            elif cmd == "check_counter":
                rest = " ".join(words[1:])
                name, rest = rest.split("(", 1)
                index, rest = rest.split(")", 1)
                cond = rest.split()
                if cond[:2] != ["packets", "=="]:
                    raise ValueError("%s: only `packets == N` is supported: %s" % (path, raw))
                out.append(("check_counter", name.strip(), int(index), int(cond[2])))
            else:
                raise ValueError("%s: unknown command: %s" % (path, raw))
    return out


def expected_packet(hexdata, exact):
    """A ptf Mask for an STF expectation: `*` nibbles do not matter; without `$` the received
    packet may be longer (ptf compares the mask's length only)."""
    nibbles = hexdata.replace("*", "0")
    if len(nibbles) % 2:
        nibbles += "0"
    m = Mask(bytes.fromhex(nibbles), ignore_extra_bytes=not exact)
    for i, c in enumerate(hexdata):
        if c == "*":
            byte = i // 2
            bits = 0xF0 if i % 2 == 0 else 0x0F
            m.mask[byte] &= ~bits & 0xFF
    return m


class LoadTableStf(BfRuntimeTest):
    """Each STF file, on a freshly cleared table."""

    def setUp(self):
        self.client_id = 0
        BfRuntimeTest.setUp(self, self.client_id, PROGRAM)
        self.bfrt_info = self.interface.bfrt_info_get(PROGRAM)
        self.target = gc.Target(device_id=0, pipe_id=0xFFFF)
        self.ports = sorted(testutils.config["port_map"].keys())
        params = testutils.test_params_get()
        self.stf_dir = params.get(
            "stf_dir", os.path.join(os.path.dirname(__file__), os.pardir)
        )

    def clear(self):
        """Registers and counters back to zero, as at power-on (each file starts from it)."""
        for t in self.bfrt_info.table_dict.keys():
            short = t.split(".")[-1]
            if short.startswith("lt_slot_") or short.startswith("lt_sat_") or short == "lt_bad":
                if t.startswith("pipe."):
                    self.bfrt_info.table_get(t).entry_del(self.target, [])

    def counter(self, name, index):
        if name == "lt_saturations":
            table, key = "pipe.LtIngress.lt_sat_%d" % index, 0
        else:
            table, key = "pipe.LtIngress.%s" % name, index
        t = self.bfrt_info.table_get(table)
        resp = t.entry_get(
            self.target,
            [t.make_key([gc.KeyTuple("$COUNTER_INDEX", key)])],
            {"from_hw": True},
        )
        data, _ = next(resp)
        return data.to_dict()["$COUNTER_SPEC_PKTS"]

    def runTest(self):
        files = sorted(glob.glob(os.path.join(self.stf_dir, "*.stf")))
        self.assertTrue(files, "no STF files in %s" % self.stf_dir)
        for path in files:
            self.clear()
            for entry in parse_stf(path):
                if entry[0] == "packet":
                    testutils.send_packet(self, self.ports[entry[1]], entry[2])
                elif entry[0] == "expect":
                    # The program sends each packet back out of its port before the next one.
                    m = expected_packet(entry[2], entry[3])
                    testutils.verify_packet(self, m, self.ports[entry[1]])
                elif entry[0] == "check_counter":
                    _, name, index, packets = entry
                    got = self.counter(name, index)
                    self.assertEqual(
                        got,
                        packets,
                        "%s: %s(%d) = %d, expected %d" % (path, name, index, got, packets),
                    )
            testutils.verify_no_other_packets(self)
