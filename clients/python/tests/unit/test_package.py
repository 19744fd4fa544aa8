import ast
import sys
import unittest
from pathlib import Path

import verifactu_client

PACKAGE = Path(verifactu_client.__file__).parent


class Package(unittest.TestCase):
    def test_it_imports_the_standard_library_only_and_is_typed(self):
        imported: set[str] = set()
        for source in PACKAGE.glob("*.py"):
            for node in ast.walk(ast.parse(source.read_text("utf-8"))):
                if isinstance(node, ast.Import):
                    imported.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    imported.add(node.module.split(".")[0])
        self.assertIn("urllib", imported)
        self.assertEqual(sorted(imported - sys.stdlib_module_names - {"__future__"}), [])
        self.assertTrue((PACKAGE / "py.typed").is_file())

    def test_its_names_read_as_python(self):
        methods = [name for name in vars(verifactu_client.VerifactuClient) if not name.startswith("_")]
        methods += [name for name in vars(verifactu_client.Operations) if not name.startswith("_")]
        self.assertEqual([name for name in methods if name != name.lower()], [])
        self.assertTrue(issubclass(verifactu_client.ValidationError, verifactu_client.VerifactuError))


if __name__ == "__main__":
    unittest.main()
