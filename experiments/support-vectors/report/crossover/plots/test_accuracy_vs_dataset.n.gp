# kexp plot; run `gnuplot test_accuracy_vs_dataset.n.gp` here to redraw test_accuracy_vs_dataset.n.svg
set terminal svg size 1000,691 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_dataset.n.svg'
set title 'test accuracy against n_train: gaussian'
set xlabel 'n_train (training points)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the highest test_accuracy over kernel.features.' at screen 0.01, screen 0.0521 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0203 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '500' 500, '1000' 1000, '2000' 2000, '4000' 4000, '10000' 10000, '20000' 20000, '40000' 40000, '100000' 100000)
set logscale x
$line0 << EOD
250 0.967741935483871 0.967741935483871 0.967741935483871
500 0.952 0.952 0.952
1000 0.976 0.976 0.976
2000 0.962 0.962 0.962
4000 0.977 0.977 0.977
10000 0.978 0.978 0.978
20000 0.9754 0.9754 0.9754
40000 0.9769 0.9769 0.9769
100000 0.9752 0.9752 0.9752
EOD
$line1 << EOD
250 0.967741935483871 0.967741935483871 0.967741935483871
500 0.952 0.952 0.952
1000 0.976 0.976 0.976
2000 0.962 0.962 0.962
4000 0.981 0.981 0.981
10000 0.98 0.98 0.98
20000 0.9762 0.9762 0.9762
40000 0.9774 0.9774 0.9774
100000 0.97492 0.97492 0.97492
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'svc shrinking=true (dual)'
