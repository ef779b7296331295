"""Immutable objects that are cheap to derive from one another.

`apply(action)` must return a new state and leave the old one untouched, and it runs millions of
times in benchmarks and searches. Copying through `object.__setattr__` costs about five times
more than plain attribute writes, so each frozen class gets an "open" twin with the same slots:
`_thaw()` copies into an open instance (plain writes allowed), the rules mutate that fresh copy,
and `_freeze()` switches its class back. Outside code only ever sees frozen instances.
"""

from __future__ import annotations


class Frozen:
    __slots__ = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("_is_open_twin"):
            return
        slots = [
            name for klass in reversed(cls.__mro__) for name in klass.__dict__.get("__slots__", ())
        ]
        twin = type(
            f"_Open{cls.__name__}",
            (cls,),
            # Both hooks must be object's own: CPython keeps its fast attribute writes only when
            # neither __setattr__ nor __delattr__ is a Python function.
            {
                "__slots__": (),
                "__setattr__": object.__setattr__,
                "__delattr__": object.__delattr__,
                "_is_open_twin": True,
            },
        )
        body = "".join(f"    n.{name} = self.{name}\n" for name in slots)
        source = f"def _thaw(self):\n    n = _new(_twin)\n{body}    return n\n"
        namespace = {"_new": object.__new__, "_twin": twin}
        exec(source, namespace)  # a straight-line copy: the fastest copy CPython offers
        cls._thaw = namespace["_thaw"]
        cls._frozen_class = cls
        cls._open_class = twin
        cls._slot_names = tuple(slots)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable: apply() returns a new one")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _freeze(self):
        self.__class__ = self._frozen_class
        return self

    @classmethod
    def _blank(cls):
        """A new open instance with no fields set, for constructors."""
        return object.__new__(cls._open_class)
