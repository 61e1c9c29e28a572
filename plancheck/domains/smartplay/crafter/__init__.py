"""SmartPlay's Crafter: the real ``crafter`` 1.8.3 as the runtime, SmartPlay's texts exactly, certified plans."""
