# kexp plot; run `gnuplot test_rmse_vs_solver.iterations.gp` here to redraw test_rmse_vs_solver.iterations.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_solver.iterations.svg'
set title 'test RMSE against iterations: polynomial'
set xlabel 'iterations (solver.iterations)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'Each point: the cell with the lowest test_rmse over kernel.degree.' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'Drawn over one another, with the same errors: primal_gd (primal) and dual_gd (dual).' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '10' 10, '100' 100, '1000' 1000)
set logscale x
$line0 << EOD
1 0.3610963550301898 0.3610963550301898 0.3610963550301898
10 0.21069231603896452 0.21069231603896452 0.21069231603896452
100 0.11589643855320021 0.11589643855320021 0.11589643855320021
1000 0.10682574244873913 0.10682574244873913 0.10682574244873913
EOD
$line1 << EOD
1 0.3610963550301898 0.3610963550301898 0.3610963550301898
10 0.2106923160389646 0.2106923160389646 0.2106923160389646
100 0.11589643855320021 0.11589643855320021 0.11589643855320021
1000 0.10682574244873919 0.10682574244873919 0.10682574244873919
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'dual_gd (dual)'
