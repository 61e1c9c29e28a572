"""The Python API: a small documented surface that honours $PLANCHECK_DATA and names options as Python does."""

from __future__ import annotations

import inspect

import pytest

import plancheck


@pytest.mark.parametrize("name", [n for n in plancheck.__all__ if n != "__version__"])
def test_every_public_name_is_documented_and_typed(name):
    obj = getattr(plancheck, name)
    assert inspect.getdoc(obj), f"plancheck.{name} has no docstring"
    if inspect.isfunction(obj):
        signature = inspect.signature(obj)
        assert signature.return_annotation is not inspect.Signature.empty, name
        assert all(p.annotation is not inspect.Parameter.empty for p in signature.parameters.values()), name


def test_the_library_honours_plancheck_data(monkeypatch, shared_data, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PLANCHECK_DATA", str(shared_data))
    assert plancheck.instance("mango", "905/rf/eaaf7386").id.startswith("905/rf/eaaf7386")
    monkeypatch.setenv("PLANCHECK_DATA", str(tmp_path / "nowhere"))
    with pytest.raises(plancheck.DataNotFoundError) as error:
        plancheck.instance("mango", "905/rf/eaaf7386")
    assert "--" not in str(error.value)  # no command-line flags in library errors


def test_library_errors_name_options_as_python_does():
    with pytest.raises(plancheck.BadInputError) as error:
        list(plancheck.instances("grasp", "gen1_inner_random_free", indices="5-3"))
    assert str(error.value).startswith("indices '5-3'") and error.value.option == "indices"


def test_instances_by_object_or_id_give_the_same_verdict():
    by_id = plancheck.check("hanoi", "hanoi-3", "A->C")
    by_object = plancheck.check("hanoi", plancheck.instance("hanoi", "hanoi-3"), "A->C")
    assert by_id.to_json() == by_object.to_json()


def test_every_public_name_and_its_methods_have_a_docstring():
    missing = []
    for name in plancheck.__all__:
        value = getattr(plancheck, name)
        if name != "__version__" and not inspect.getdoc(value):
            missing.append(name)
        if inspect.isclass(value):
            for member, attribute in vars(value).items():
                function = attribute.fget if isinstance(attribute, property) else getattr(attribute, "__func__",
                                                                                            attribute)
                if not member.startswith("_") and callable(function) and not inspect.getdoc(function):
                    missing.append(f"{name}.{member}")
    assert not missing, f"public names without a docstring: {missing}"
