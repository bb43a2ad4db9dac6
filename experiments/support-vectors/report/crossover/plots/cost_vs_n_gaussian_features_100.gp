# kexp plot; run `gnuplot cost_vs_n_gaussian_features_100.gp` here to redraw cost_vs_n_gaussian_features_100.svg
set terminal svg size 1000,730 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian_features_100.svg'
set title 'time against n: gaussian features=100 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 9
set label 100 'linear_svc: bias=regularized, c=1, epochs=1000, loss=hinge, tolerance=0.001' at screen 0.01, screen 0.1397 left font ',12'
set label 101 'svc: bias=regularized, c=1, cache_bytes=0, iterations=10000000, loss=hinge, shrinking=true, tolerance=0.001' at screen 0.01, screen 0.1096 left font ',12'
set label 102 'Crossover linear_svc / svc: not resolved: times below 1 ms at n = 250 or 500.' at screen 0.01, screen 0.0795 left font ',12'
set label 103 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0493 left font ',12'
set label 104 'The primal map''s dimension D = 100 is below every n drawn.' at screen 0.01, screen 0.0192 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '500' 500, '1000' 1000, '2000' 2000, '4000' 4000, '10000' 10000, '20000' 20000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
$line0 << EOD
250 0.000624705 0.000583623 0.000995695
500 0.000630616 0.000601727 0.00101546
1000 0.0015110479999999999 0.0013127280000000002 0.002150285
2000 0.007492791 0.0033195140000000004 0.008988171
4000 0.012259283 0.011926863000000001 0.015939627999999997
10000 0.033434195 0.030561456 0.04948176
20000 0.080966671 0.07818287099999999 0.09330483099999999
40000 0.098950484 0.091884978 0.116175102
100000 0.5555858385 0.549131707 0.589223364
EOD
$line1 << EOD
250 0.0005727989999999999 0.000556548 0.0010710820000000001
500 0.0013266839999999998 0.0012738790000000001 0.0017674960000000001
1000 0.0044207610000000005 0.0041936180000000005 0.008270388
2000 0.027973605999999998 0.0266607 0.029354945
4000 0.071652066 0.071571732 0.075799611
10000 0.342489302 0.338754732 0.355966415
20000 1.175160529 1.172775227 1.175934971
40000 4.25110397 4.25110397 4.25110397
100000 31.977257181000002 31.977257181000002 31.977257181000002
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'svc (dual)'
