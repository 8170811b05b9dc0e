"""The blast radius of a declared method (an interface, trait, protocol or base-class member) and
of its implementations, one rule for every language (graph.blast): a call through the declaration
reaches each implementation by a dispatch edge; the implementations those edges reach are one hop
from the declaration (``via implements``), and their own callers one hop further. The same
workspace in Python, TypeScript, Java, Go and Rust: ``Shape.area`` declared, ``Circle.area``
implementing it, ``Table.area`` a same-named method of an unrelated type."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import write_files
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.model import CONFIDENCE_NAMES

PY: dict[str, str] = {"shapes.py": '''class Shape:
    def area(self) -> float:
        raise NotImplementedError


class Circle(Shape):
    def area(self) -> float:
        return 3.14


class Table:
    def area(self) -> float:
        return 1.0


def total(s: Shape) -> float:
    return s.area()


def report() -> float:
    return total(Circle())


def circle_only(c: Circle) -> float:
    return c.area()


def table_only(t: Table) -> float:
    return t.area()


def main() -> None:
    circle_only(Circle())
'''}
TS: dict[str, str] = {"src/shapes.ts": '''export interface Shape {
  area(): number;
}

export class Circle implements Shape {
  area(): number {
    return 3.14;
  }
}

export class Table {
  area(): number {
    return 1;
  }
}

export function total(s: Shape): number {
  return s.area();
}

export function report(): number {
  return total(new Circle());
}

export function circleOnly(c: Circle): number {
  return c.area();
}

export function tableOnly(t: Table): number {
  return t.area();
}

export function main(): void {
  circleOnly(new Circle());
}
'''}
JAVA: dict[str, str] = {"src/shapes/Shape.java": "package shapes;\n\npublic interface Shape {\n    double area();\n}\n",
"src/shapes/Circle.java": "package shapes;\n\npublic class Circle implements Shape {\n    public double area() {\n        return 3.14;\n    }\n}\n",
"src/shapes/Table.java": "package shapes;\n\npublic class Table {\n    public double area() {\n        return 1.0;\n    }\n}\n",
"src/shapes/Use.java": '''package shapes;

public class Use {
    static double total(Shape s) {
        return s.area();
    }

    static double report() {
        return total(new Circle());
    }

    static double circleOnly(Circle c) {
        return c.area();
    }

    static double tableOnly(Table t) {
        return t.area();
    }

    static void main() {
        circleOnly(new Circle());
    }
}
'''}
GO: dict[str, str] = {"go.mod": "module example.com/shapes\n\ngo 1.21\n", "shapes.go": '''package shapes

type Shape interface {
	Area() float64
	Name() string
}

type Circle struct{}

func (c Circle) Area() float64 { return 3.14 }

func (c Circle) Name() string { return "circle" }

type Table struct{}

func (t Table) Area() float64 { return 1 }

func Total(s Shape) float64 {
	return s.Area()
}

func Report() float64 {
	return Total(Circle{})
}

func CircleOnly(c Circle) float64 {
	return c.Area()
}

func TableOnly(t Table) float64 {
	return t.Area()
}

func Main() {
	CircleOnly(Circle{})
}
'''}
RUST: dict[str, str] = {"Cargo.toml": '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n', "src/lib.rs": '''pub trait Shape {
    fn area(&self) -> f64;
}

pub struct Circle;

impl Shape for Circle {
    fn area(&self) -> f64 {
        3.14
    }
}

pub struct Table;

impl Table {
    pub fn area(&self) -> f64 {
        1.0
    }
}

pub fn total(s: &dyn Shape) -> f64 {
    s.area()
}

pub fn report() -> f64 {
    total(&Circle)
}

pub fn circle_only(c: &Circle) -> f64 {
    c.area()
}

pub fn table_only(t: &Table) -> f64 {
    t.area()
}

pub fn main() {
    circle_only(&Circle);
}
'''}


# language: (files, the declared method, the implementation, the unrelated method, qname prefix,
# (through the declaration, its caller, the implementation's caller, that one's caller, the
# unrelated method's caller))
CASES = {
    "python": (PY, "shapes.Shape.area", "shapes.Circle.area", "shapes.Table.area", ("shapes.total", "shapes.report", "shapes.circle_only", "shapes.main", "shapes.table_only")),
    "typescript": (TS, "src.shapes.Shape.area", "src.shapes.Circle.area", "src.shapes.Table.area",
                   ("src.shapes.total", "src.shapes.report", "src.shapes.circleOnly", "src.shapes.main", "src.shapes.tableOnly")),
    "java": (JAVA, "shapes.Shape.area", "shapes.Circle.area", "shapes.Table.area",
             ("shapes.Use.total", "shapes.Use.report", "shapes.Use.circleOnly", "shapes.Use.main", "shapes.Use.tableOnly")),
    "go": (GO, "main.Shape.Area", "main.Circle.Area", "main.Table.Area", ("main.Total", "main.Report", "main.CircleOnly", "main.Main", "main.TableOnly")),
    "rust": (RUST, "shapes.Shape.area", "shapes.Circle.area", "shapes.Table.area",
             ("shapes.total", "shapes.report", "shapes.circle_only", "shapes.main", "shapes.table_only")),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    files, decl, impl, other, callers = CASES[request.param]
    root = tmp_path_factory.mktemp(request.param)
    eng = Engine(write_files(root / "ws", files), db_path=root / "index.db")
    eng.index()
    g = Graph(eng)
    yield g, *(next(s for s in g.symbols_by_qname(q) if s.kind == "method") for q in (decl, impl, other)), callers
    eng.close()


def radius(g: Graph, sym, depth: int = 3, **kw) -> dict[str, tuple[int, str, str | None]]:
    res = g.blast_radius([sym], depth=depth, **kw)
    return {i.symbol.qname: (i.depth, CONFIDENCE_NAMES[i.confidence], i.via and i.via.encode()) for i in res.items}


def test_a_declaration_reaches_its_implementations_and_their_callers(case) -> None:
    g, decl, impl, _other, (total, report, circle_only, main, _) = case
    assert radius(g, decl) == {
        total: (1, "inferred", None),  # calls through the declaration
        impl.qname: (1, "inferred", f"implements:{decl.qname}"),  # must follow its contract
        report: (2, "inferred", None),
        circle_only: (2, "inferred", None),  # calls the implementation on its concrete type
        main: (3, "inferred", None),
    }
    item = next(i for i in g.blast_radius([decl], depth=2).items if i.symbol.qname == circle_only)
    assert item.chain == [decl.qname, impl.qname, circle_only]
    assert not next(i for i in g.blast_radius([decl], depth=1).items if i.symbol.qname == impl.qname).sites


def test_an_implementation_reaches_the_callers_through_the_declaration(case) -> None:
    g, decl, impl, _other, (total, report, circle_only, main, _) = case
    assert radius(g, impl) == {
        total: (1, "inferred", f"dispatch:{decl.qname}"),
        circle_only: (1, "inferred", None),
        report: (2, "inferred", None),
        main: (2, "inferred", None),
    }  # not the declaration: changing one implementation does not change the contract


def test_the_rule_follows_confidence_and_direction(case) -> None:
    g, decl, impl, _other, _callers = case
    assert radius(g, decl, min_confidence="extracted") == {}  # dispatch edges are inferred
    assert impl.qname not in radius(g, decl, direction="outgoing")


def test_an_unrelated_same_named_method_stays_apart(case) -> None:
    g, decl, impl, other, callers = case
    assert set(radius(g, other)) == {callers[4]}  # its one caller, on its own type
    assert other.qname not in radius(g, decl) and other.qname not in radius(g, impl)


def test_a_python_stub_or_overload_answers_as_its_implementation(tmp_path: Path) -> None:
    """A ``.pyi`` def and ``@overload`` signatures are linked with their implementation at every
    call (Python's resolver), so their blast radius is the implementation's."""
    files = {
        "lib/__init__.py": "",
        "lib/m.py": "from typing import overload\n\n\n@overload\ndef f(x: int) -> int: ...\n@overload\n"
        "def f(x: str) -> str: ...\ndef f(x):\n    return x\n\n\ndef g(y):\n    return y\n",
        "lib/m.pyi": "def g(y: int) -> int: ...\n",
        "use.py": "from lib.m import f, g\n\n\ndef a():\n    return f(1)\n\n\ndef b():\n    return g(2)\n\n\n"
        "def c():\n    return a() + b()\n",
    }
    eng = Engine(write_files(tmp_path / "ws", files), db_path=tmp_path / "index.db")
    eng.index()
    g = Graph(eng)
    for qname, caller in (("lib.m.f", "use.a"), ("lib.m.g", "use.b")):
        decls = g.symbols_by_qname(qname)
        assert len(decls) >= 2
        for d in decls:
            assert radius(g, d) == {caller: (1, "extracted", None), "use.c": (2, "extracted", None)}
    eng.close()


def test_agents_say_an_implementation_is_reached_from_its_declaration(tmp_path: Path) -> None:
    """The agent tool's blast radius names the declaration an implementation implements, in both
    formats, where a call site would stand (it has none)."""
    from graphmind.agents import tools as T

    write_files(tmp_path, PY)
    tools = T.Tools(tmp_path)
    with tools.view() as v:
        brief = T.blast_radius(v, "shapes.Shape.area", depth=2, budget=tools.budget(None))
        items = T.blast_radius(v, "shapes.Shape.area", depth=2, budget=tools.budget(None), format="items")
    circle = [s for f in brief.data["files"] for s in f.get("symbols", []) if s["qualifiedName"] == "shapes.Circle.area"]
    assert circle and circle[0]["implements"] == "shapes.Shape.area" and circle[0]["at"] == []
    assert "shapes.Circle.area (d1 inferred) implements shapes.Shape.area" in brief.text, brief.text
    line = next(x for x in items.text.splitlines() if "shapes.Circle.area" in x)
    assert line.endswith("via implements shapes.Shape.area"), line
    assert all("Table" not in x for x in brief.text.splitlines()), brief.text


# the functions that call through the declaration: without them, nothing does
THROUGH = {
    "python": ("shapes.py", "def total(s: Shape) -> float:\n    return s.area()\n\n\ndef report() -> float:\n    return total(Circle())\n\n\n"),
    "typescript": ("src/shapes.ts", "export function total(s: Shape): number {\n  return s.area();\n}\n\n"
                   "export function report(): number {\n  return total(new Circle());\n}\n\n"),
    "java": ("src/shapes/Use.java", "    static double total(Shape s) {\n        return s.area();\n    }\n\n"
             "    static double report() {\n        return total(new Circle());\n    }\n\n"),
    "go": ("shapes.go", "func Total(s Shape) float64 {\n\treturn s.Area()\n}\n\nfunc Report() float64 {\n\treturn Total(Circle{})\n}\n\n"),
    "rust": ("src/lib.rs", "pub fn total(s: &dyn Shape) -> f64 {\n    s.area()\n}\n\npub fn report() -> f64 {\n    total(&Circle)\n}\n\n"),
}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_a_declaration_nobody_calls_through_reaches_its_implementations(lang: str, tmp_path: Path) -> None:
    """The pair (declaration, implementation) is stored by the declaring file's resolution, not
    read off dispatch edges: "what breaks if I change Shape.area" reaches Circle.area and its
    callers on Circles when no call goes through Shape."""
    files, decl_q, impl_q, other_q, (_, _, circle_only, main, _) = CASES[lang]
    path, through = THROUGH[lang]
    assert through in files[path]
    files = {**files, path: files[path].replace(through, "")}
    eng = Engine(write_files(tmp_path / "ws", files), db_path=tmp_path / "index.db")
    eng.index()
    g = Graph(eng)
    decl, impl, other = (next(s for s in g.symbols_by_qname(q) if s.kind == "method") for q in (decl_q, impl_q, other_q))
    assert not any(e for e in eng.db.execute("SELECT 1 FROM edges WHERE via IS NOT NULL"))  # no dispatch edge at all
    assert radius(g, decl) == {
        impl_q: (1, "inferred", f"implements:{decl_q}"),
        circle_only: (2, "inferred", None),
        main: (3, "inferred", None),
    }
    assert radius(g, decl, min_confidence="extracted") == {}
    assert other_q not in radius(g, decl) and impl_q not in radius(g, other)
    eng.close()
