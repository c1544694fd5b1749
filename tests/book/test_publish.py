"""Publishing: `make publish` builds the book for its address, and the GitHub Pages workflow runs it and deploys."""

import re

import yaml

from tests.support import ROOT


def workflow():
    return yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))


def test_the_pages_workflow_builds_the_book_for_the_repositorys_address_and_deploys_it():
    flow = workflow()
    triggers = flow.get("on", flow.get(True))  # YAML 1.1 reads the key `on` as true
    assert triggers["push"]["branches"] == ["main"] and "workflow_dispatch" in triggers
    assert flow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    build, deploy = flow["jobs"]["build"]["steps"], flow["jobs"]["deploy"]
    uses = [step.get("uses", "").split("@")[0] for step in build]
    assert uses[:2] == ["actions/checkout", "actions/setup-python"] and "actions/setup-node" in uses
    pages = next(step for step in build if step.get("uses", "").startswith("actions/configure-pages@"))
    run = [step["run"] for step in build if "run" in step]
    # The address comes from the repository (configure-pages: https://<owner>.github.io/<repo>), with its final /.
    assert run == [f'make publish BOOK_BASE_URL="${{{{ steps.{pages["id"]}.outputs.base_url }}}}/"']
    upload = next(step for step in build if step.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "_build/html"
    assert uses.index("actions/upload-pages-artifact") > uses.index("actions/configure-pages")
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert [step["uses"].split("@")[0] for step in deploy["steps"]] == ["actions/deploy-pages"]
    assert deploy["environment"]["url"] == f'${{{{ steps.{deploy["steps"][0]["id"]}.outputs.page_url }}}}'


def test_make_publish_builds_the_book_with_its_address_and_nojekyll():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^publish:\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe, "a publish target"
    lines = [line.strip() for line in recipe.group(1).splitlines()]
    assert lines[0].startswith('@test -n "$(BOOK_BASE_URL)" ||') and "exit 2" in lines[0]
    assert lines[1:3] == ['$(MAKE) book BOOK_BASE_URL="$(BOOK_BASE_URL)"', "touch _build/html/.nojekyll"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make publish BOOK_BASE_URL=https://" in readme and ".github/workflows/pages.yml" in readme


def test_binder_installs_the_book_and_its_notebook_tools():
    binder = ROOT / "binder"
    assert (binder / "requirements.txt").read_text(encoding="utf-8").splitlines()[1:] == [
        "-r ../requirements.txt", "-r ../requirements-lab.txt"]
    post_build = (binder / "postBuild").read_text(encoding="utf-8")
    # JupyterLab as `make lab` runs it: the package, its settings (chapters open as notebooks), its contents manager.
    assert "python -m pip install --no-deps -e ." in post_build
    assert 'from helpers.book.lab.launch import main; sys.exit(main(["settings"]))' in post_build
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    manager = re.search(r"--ServerApp\.contents_manager_class=(\S+)", makefile).group(1)
    assert f'c.ServerApp.contents_manager_class = "{manager}"' in post_build
    assert "export BOOK_NOTEBOOK=1" in (binder / "start").read_text(encoding="utf-8")
    assert "BOOK_NOTEBOOK=1" in makefile
    for script in ("postBuild", "start"):
        assert (binder / script).stat().st_mode & 0o111, script
